/* SPDX-License-Identifier: MIT */
// Kernel samples -> perfmon records: the hot path of tracing. One perf sample becomes one
// group of records (TIME, then PC or TICK, then a VALUE per event read with a timebase, then
// LAST_BRANCH) appended whole or not at all. No allocation, no lock.
#pragma once

#include <linux/perf_event.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/perfmon/types.h"
#include "trace_buffer.h"

namespace perfmon {

// One perf event on one CPU, as its samples need it.
struct EventSlot {
  uint64_t perf_id = 0;  // PERF_EVENT_IOC_ID: what PERF_SAMPLE_IDENTIFIER carries
  perfmon_event_id_t event = 0;
  uint32_t flags = 0;        // PERFMON_FLAG_*
  uint64_t sample_type = 0;  // 0: a counting event, never sampled
  uint64_t samples = 0;      // samples written for it (its TICK or PC records)
};

// The events of one CPU, in config order.
struct CpuEvents {
  EventSlot slots[PERFMON_MAX_NUM_EVENTS];
  size_t count = 0;

  EventSlot *Find(uint64_t perf_id) {
    for (size_t i = 0; i < count; ++i) {
      if (slots[i].perf_id == perf_id) return &slots[i];
    }
    return nullptr;
  }
};

// The sample_type every sampling event of ours uses, before the per-event additions
// (PERF_SAMPLE_READ for a timebase with followers, PERF_SAMPLE_BRANCH_STACK).
constexpr uint64_t kBaseSampleType =
    PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME;

// Converts one PERF_RECORD_SAMPLE (`record` points at its perf_event_header, contiguous) into
// `buffer`. Returns false if it did not fit (the buffer is then marked full) or was malformed.
bool ConvertSample(const perf_event_header *record, CpuEvents *events, TraceBuffer *buffer);

}  // namespace perfmon
