/* SPDX-License-Identifier: MIT */
// The counting families the reliability tests run the same checks on, behind one small
// interface: set/start/stop/reset/read/delete on system-wide counting, the calling thread
// (_mythread), a third-party thread (_thread, a sleeping child process), and the counting
// groups rooted at the calling thread (_mygroup) or at the child (_group).
#pragma once

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <memory>
#include <string>

#include "pmapi.h"
#include "support/child_process.h"
#include "support/counting.h"
#include "support/enum_names.h"
#include "support/family_entry_points.h"
#include "support/timebase.h"

namespace pmapi_test {

// The _thread/_group target: a child process that makes no call of its own, only the exact
// getppid calls a test asks for (Calls(n), support/child_process.h), and is killed at the end.
class SleepingChild : public CallingChild {
 public:
  SleepingChild() : CallingChild(0) {}
};

// One family's entry points (support/family_entry_points.h), with the target fixed at
// construction.
class Family : public FamilyOps {
 public:
  explicit Family(FamilyKind kind)
      : kind_(kind), child_(IsRemote(kind) ? new SleepingChild : nullptr) {
    FamilyOps::operator=(
        OpsFor(kind, child_ ? child_->pid() : 0));  // once the child's pid is known
  }

  FamilyKind kind() const { return kind_; }
  // What the library's messages call this family's targets.
  std::string TargetWord() const {
    return kind_ == FamilyKind::kSystem ? "CPU " : "thread " + std::to_string(Tid());
  }

  // Exactly `n` getppid calls by the family's target: the calling thread, or the child for the
  // remote families (returns once it made them).
  void TargetCalls(long n) {
    if (child_) {
      child_->Calls(n);
    } else {
      CallGetppid(n);
    }
  }

  // The tid a thread family counts (the calling thread for _mythread).
  pid_t Tid() const { return IsRemote(kind_) ? child_->pid() : gettid(); }

 private:
  FamilyKind kind_;
  std::unique_ptr<SleepingChild> child_;  // the _thread target; none for the others
};

// What the fault, read and file tests of every family start from: the library initialized (or
// the test skipped, saying why), the two events they count, and the perf descriptors open before
// the test, which a failed call must not add to; every program deleted afterwards.
template <typename Param>
class FamilyFaultTest : public ::testing::TestWithParam<Param> {
 protected:
  void SetUp() override {
    if (!InitializeAll()) return;
    getppid_ = EventId(kGetppid);
    clock_ = EventId("task-clock");
    baseline_fds_ = CountPerfDescriptors();
    ASSERT_GE(baseline_fds_, 0);
  }
  void TearDown() override {
    pm_delete_program();
    pm_delete_program_mythread();
  }
  int getppid_ = COUNT_NOTHING;
  int clock_ = COUNT_NOTHING;
  int baseline_fds_ = -1;
};

}  // namespace pmapi_test
