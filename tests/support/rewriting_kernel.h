/* SPDX-License-Identifier: MIT */
#pragma once

#include <stdint.h>
#include <string.h>

#include <map>
#include <mutex>
#include <string>

#include "support/fake_kernel.h"

namespace pmapi_test {

// Passes everything to the real kernel, then rewrites what reads of the chosen descriptors
// return (the one read-rewriting kernel of the tests). Descriptors are chosen by the CPU they were
// opened on (-1: every descriptor).
class RewritingKernel : public FakeKernel {
 public:
  enum class Mode { kPass, kZeroBytes, kShort, kMultiplexed, kFail, kFrozen };

  // kFail fails with `err`; kMultiplexed reports 1/running_divisor of the time enabled as
  // running.
  void Rewrite(Mode mode, int only_cpu = -1, int err = 0, int running_divisor = 4) {
    std::lock_guard<std::mutex> lock(mutex_);
    mode_ = mode;
    only_cpu_ = only_cpu;
    err_ = err;
    running_divisor_ = running_divisor;
    frozen_.clear();
  }

  int PerfEventOpen(const perf_event_attr &attr, pid_t pid, int cpu, int group_fd) override {
    int fd = FakeKernel::PerfEventOpen(attr, pid, cpu, group_fd);
    std::lock_guard<std::mutex> lock(mutex_);
    if (fd >= 0) cpu_of_[fd] = cpu;
    return fd;
  }

  ssize_t Read(int fd, void *buf, size_t size) override {
    ssize_t n = FakeKernel::Read(fd, buf, size);
    std::lock_guard<std::mutex> lock(mutex_);
    if (n <= 0 || mode_ == Mode::kPass || (only_cpu_ >= 0 && cpu_of_[fd] != only_cpu_)) return n;
    uint64_t *words = static_cast<uint64_t *>(buf);  // nr, time_enabled, time_running, values
    switch (mode_) {
      case Mode::kPass:
        return n;
      case Mode::kZeroBytes:
        return 0;
      case Mode::kShort:
        return n - 8;
      case Mode::kMultiplexed:
        if (words[1] < 4000) words[1] = 4000;  // a target that never ran has no time at all
        words[2] = words[1] / running_divisor_;
        return n;
      case Mode::kFail:
        return -err_;
      case Mode::kFrozen: {
        // What the kernel does to a CPU's counters when the CPU goes offline: every later
        // read returns the counts and times of that moment.
        auto found = frozen_.find(fd);
        if (found == frozen_.end()) {
          frozen_[fd] = std::string(static_cast<char *>(buf), n);
        } else {
          memcpy(buf, found->second.data(), found->second.size());
        }
        return n;
      }
    }
    return n;
  }

 private:
  std::mutex mutex_;
  Mode mode_ = Mode::kPass;
  int only_cpu_ = -1;
  int err_ = 0;
  int running_divisor_ = 4;
  std::map<int, int> cpu_of_;
  std::map<int, std::string> frozen_;
};

}  // namespace pmapi_test
