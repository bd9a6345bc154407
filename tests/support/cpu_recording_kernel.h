/* SPDX-License-Identifier: MIT */
// A simulated perf kernel for synthetic machines (tests/topology/machines/), whose CPUs this
// machine does not have: each open is made on CPU 0 of the simulator, and the CPU asked for is
// remembered, so that a test can tell which CPU's group a read read.
#pragma once

#include <map>
#include <mutex>
#include <vector>

#include "support/simulated_perf_kernel.h"

namespace pmapi_test {

class CpuRecordingKernel : public SimulatedPerfKernel {
 public:
  int PerfEventOpen(const perf_event_attr &attr, pid_t pid, int cpu, int group_fd) override {
    const int fd = SimulatedPerfKernel::PerfEventOpen(attr, pid, cpu < 0 ? cpu : 0, group_fd);
    std::lock_guard<std::mutex> lock(mutex_);
    if (fd >= 0) cpu_of_fd_[fd] = cpu;
    return fd;
  }
  ssize_t Read(int fd, void *buf, size_t size) override {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      auto found = cpu_of_fd_.find(fd);
      if (found != cpu_of_fd_.end()) cpus_read_.push_back(found->second);
    }
    return SimulatedPerfKernel::Read(fd, buf, size);
  }
  // The CPUs whose descriptors were read since the last call.
  std::vector<int> TakeCpusRead() {
    std::lock_guard<std::mutex> lock(mutex_);
    std::vector<int> cpus;
    cpus.swap(cpus_read_);
    return cpus;
  }

 private:
  std::mutex mutex_;
  std::map<int, int> cpu_of_fd_;
  std::vector<int> cpus_read_;
};

}  // namespace pmapi_test
