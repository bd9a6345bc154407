/* SPDX-License-Identifier: MIT */
// The core contexts behind one NetBSD counter of the calling process.
//
// NetBSD keeps a counter per process, and adds a child's counts to its
// parent's "accumulated" value when the child exits. perf has no such split,
// so each counter programs two core contexts (src/core/context.h) of one
// event, with one counter group on every thread of the process:
//   own  - inherit + inherit_thread: this process, threads created later
//          included, never its child processes;
//   tree - inherit: the same plus every process forked afterwards (the kernel
//          folds a child's count into it when the child exits).
// COUNTER_VALUE is own; ACCUMULATED_COUNTER_VALUE is tree - own.
// A profiling counter is one context of a sampling event (inherit), whose
// overflows the kernel handles and discards: there is no buffer to fill.
#pragma once

#include <stdint.h>
#include <sys/types.h>

#include <memory>
#include <vector>

#include "core/context.h"
#include "counter_event.h"

namespace pmc_netbsd {

// One thread of this process as a core target: its threads created later
// count too, and it may exit before it is opened.
pmapi::GroupTarget ThreadTarget(pid_t tid);

// The threads of the calling process (from /proc/self/task, through the
// kernel seam). Returns 0 or errno.
int ThreadsOfThisProcess(std::vector<pmapi::GroupTarget> *threads);

class ProcessEvents {
 public:
  // Opens own and tree contexts for `event` on each of `threads`, stopped,
  // replacing what was open. Returns 0 or a pmc_control errno; on failure
  // nothing stays open.
  int OpenCounting(const CounterEvent &event, const std::vector<pmapi::GroupTarget> &threads);
  // Opens and starts one sampling context, overflowing every `period`
  // events. Returns 0 or a pmc_control errno; on failure nothing stays open.
  int OpenProfiling(const CounterEvent &event, uint64_t period,
                    const std::vector<pmapi::GroupTarget> &threads);

  int Enable();   // 0 or errno; on failure every event is stopped again
  int Disable();  // 0 or errno

  // Sums over the threads. 0 or errno (EBUSY if the kernel could not
  // schedule a pinned event).
  int ReadOwn(uint64_t *value) const;
  int ReadTree(uint64_t *value) const;

  void Close();

 private:
  std::unique_ptr<pmapi::Context> own_;   // counting: own events; profiling: the sampling events
  std::unique_ptr<pmapi::Context> tree_;  // counting only
};

}  // namespace pmc_netbsd
