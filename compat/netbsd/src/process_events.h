// The perf events behind one NetBSD counter of the calling process.
//
// NetBSD keeps a counter per process, and adds a child's counts to its
// parent's "accumulated" value when the child exits. perf has no such split,
// so each counter opens two events on every thread of the process:
//   own  - inherit + inherit_thread: this process, threads created later
//          included, never its child processes;
//   tree - inherit: the same plus every process forked afterwards (the kernel
//          folds a child's count into it when the child exits).
// COUNTER_VALUE is own; ACCUMULATED_COUNTER_VALUE is tree - own.
// A profiling counter is one sampling event per thread (inherit), whose
// overflows the kernel handles and discards: there is no buffer to fill.
#pragma once

#include <stdint.h>
#include <sys/types.h>

#include <vector>

#include "counter_event.h"

namespace pmc_netbsd {

// The threads of the calling process (from /proc/self/task, through the
// kernel seam). Returns 0 or errno.
int ThreadsOfThisProcess(std::vector<pid_t> *tids);

class ProcessEvents {
 public:
  ProcessEvents() = default;
  ~ProcessEvents() { Close(); }
  ProcessEvents(ProcessEvents &&other) noexcept;
  ProcessEvents &operator=(ProcessEvents &&other) noexcept;
  ProcessEvents(const ProcessEvents &) = delete;
  ProcessEvents &operator=(const ProcessEvents &) = delete;

  // Opens own and tree events for `event` on each of `tids`, disabled.
  // Returns 0 or a pmc_control errno; on failure nothing stays open.
  int OpenCounting(const CounterEvent &event, const std::vector<pid_t> &tids);
  // Opens one sampling event per thread, overflowing every `period` events,
  // disabled. Returns 0 or a pmc_control errno.
  int OpenProfiling(const CounterEvent &event, uint64_t period, const std::vector<pid_t> &tids);

  int Enable();   // 0 or errno; on failure every event is disabled again
  int Disable();  // 0 or errno

  // Sums over the threads. 0 or errno (EBUSY if the kernel could not
  // schedule a pinned event).
  int ReadOwn(uint64_t *value) const;
  int ReadTree(uint64_t *value) const;

  void Close();

 private:
  int OpenOne(perf_event_attr attr, pid_t tid, std::vector<int> *fds);
  int ControlAll(unsigned long request);
  static int SumReads(const std::vector<int> &fds, uint64_t *value);

  std::vector<int> own_;   // counting: own events; profiling: the sampling events
  std::vector<int> tree_;  // counting only
};

}  // namespace pmc_netbsd
