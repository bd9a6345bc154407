/* SPDX-License-Identifier: MIT */
// A perf_event kernel in memory: perf_event_open, the enable/disable/reset ioctls, group reads
// and close, answered without a system call, with the checks the real kernel makes that the
// library can trip (bad group leader, descriptor, CPU or pid; an event type this PMU-less
// machine has no counters for; a read buffer too small). Files still come from the real kernel
// (the catalog is read as usual). It lets the set-program fuzzer run its inputs thousands of
// times faster than through real descriptors (tests/fuzz/fuzz_set_program.cpp).
//
// Every enabled event counts one more at each read of its group, so that counts move and the
// library's arithmetic is exercised; time_running equals time_enabled (nothing multiplexed).
#pragma once

#include <linux/perf_event.h>

#include <map>
#include <mutex>
#include <vector>

#include "support/fake_kernel.h"

namespace pmapi_test {

class SimulatedPerfKernel : public FakeKernel {
 public:
  // Descriptors start here, far above any real one, so that a leaked or mixed-up descriptor
  // can never reach a real file.
  static constexpr int kFirstFd = 1 << 20;

  int PerfEventOpen(const perf_event_attr &attr, pid_t pid, int cpu, int group_fd) override;
  int Ioctl(int fd, unsigned long request, unsigned long arg) override;
  ssize_t Read(int fd, void *buf, size_t size) override;
  int Close(int fd) override;

  // How many simulated descriptors are open.
  int OpenDescriptors() const;
  // The same, less those the library keeps for the life of the process (the fork counter's and
  // the tracepoints' anchors): what a leak check compares.
  int LibraryDescriptors() const;
  // No user-space reads here: the library falls back to read(2), which is simulated.
  int MapPerfPage(int fd, const perf_event_mmap_page **page) override;

 private:
  struct Event {
    int leader;  // its own fd when it leads a group (or stands alone)
    pid_t pid;
    int cpu;
    uint64_t read_format;
    bool enabled;
    uint64_t count = 0;
    uint64_t time_enabled = 0;
  };
  std::vector<int> Members(int leader) const;  // leader first, in opening order

  mutable std::mutex mutex_;
  std::map<int, Event> events_;
  int next_fd_ = kFirstFd;
};

}  // namespace pmapi_test
