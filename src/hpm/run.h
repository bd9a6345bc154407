/* SPDX-License-Identifier: MIT */
// One libhpm run, hpmInit to hpmTerminate: the event set, the section table
// every thread accumulates into, and the bad-use counts. Sections are
// described (label, file, line) at their first start; after that a start or
// a stop touches only fixed storage: no lock, no allocation.
#pragma once

#include <pmapi.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <string>

#include "base/clock.h"
#include "event_set.h"
#include "misuse.h"

namespace hpm {

struct Section {
  std::atomic<int> described{0};  // 0 never started, 1 being described, 2 described
  std::string label, file;
  int start_line = 0;
  std::atomic<int> stop_line{0};
  std::atomic<bool> threaded{false};  // started with hpmTstart
  std::atomic<long long> calls{0}, wall_ns{0}, exclusive_wall_ns{0};
  std::atomic<long long> inclusive[MAX_COUNTERS] = {}, exclusive[MAX_COUNTERS] = {};
};

struct Run {
  int generation = 0;  // tells a thread that its stack belongs to an older run
  int task_id = 0;     // the MPI rank when a launcher says it, else hpmInit's taskID
  int requested_task_id = 0;
  std::string program;
  long long init_ns = 0;
  long long terminate_ns = 0;
  EventSet events;
  bool counting = false;  // the event set was programmed
  int num_sections = 0;   // valid ids: 0 .. num_sections-1
  std::unique_ptr<Section[]> sections;
  std::mutex describe_lock;  // taken once per section, at its first start
  MisuseCounts misuse;
  Run *previous = nullptr;  // the next older retired run (run_use.h)
};

}  // namespace hpm
