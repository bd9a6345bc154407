/* SPDX-License-Identifier: MIT */
// One event of a counting session: what it counts (its attributes, the privilege levels
// already applied) and the kind that decides how it is opened. Hardware events share the
// processor's few counters and go in groups; every other kind never needs a counter and gets a
// descriptor of its own, so that any number of them count exactly.
#pragma once

#include <linux/perf_event.h>

#include <string>

namespace pmapi {

enum class EventKind { kHardware, kSoftware, kTracepoint, kPmu };

struct SessionEvent {
  int event_id = 0;  // the catalog's id
  std::string name;  // as the session names it, modifiers included: "page-faults:u"
  perf_event_attr attr{};
  EventKind kind = EventKind::kSoftware;
};

// The kind of an encoded event: the processor's counters (generic hardware and cache events,
// raw PMU encodings), a software event, a tracepoint, or any other kernel PMU (msr, uncore,
// breakpoints), which schedules its events itself.
inline EventKind KindOf(const perf_event_attr &attr) {
  switch (attr.type) {
    case PERF_TYPE_HARDWARE:
    case PERF_TYPE_HW_CACHE:
    case PERF_TYPE_RAW:
      return EventKind::kHardware;
    case PERF_TYPE_SOFTWARE:
      return EventKind::kSoftware;
    case PERF_TYPE_TRACEPOINT:
      return EventKind::kTracepoint;
    default:
      return EventKind::kPmu;
  }
}

}  // namespace pmapi
