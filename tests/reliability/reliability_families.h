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
#include "support/timebase.h"

namespace pmapi_test {

enum class FamilyKind { kSystem, kMyThread, kThread, kMyGroup, kGroup };

inline const char *FamilyName(FamilyKind kind) {
  static const char *const kNames[] = {"system_wide", "mythread", "thread", "mygroup", "group"};
  return EnumName(kind, kNames);
}

// The _thread/_group target: a child process that makes no call of its own, only the exact
// getppid calls a test asks for (Calls(n), support/child_process.h), and is killed at the end.
class SleepingChild : public CallingChild {
 public:
  SleepingChild() : CallingChild(0) {}
};

// One family's entry points, with the target fixed at construction.
class Family {
 public:
  explicit Family(FamilyKind kind)
      : kind_(kind), child_(Remote(kind) ? new SleepingChild : nullptr) {}

  // Whether the family counts another process (the sleeping child).
  static bool Remote(FamilyKind kind) {
    return kind == FamilyKind::kThread || kind == FamilyKind::kGroup;
  }

  FamilyKind kind() const { return kind_; }
  // What the library's messages call this family's targets.
  std::string TargetWord() const {
    return kind_ == FamilyKind::kSystem ? "CPU " : "thread " + std::to_string(Tid());
  }

  int Set(pm_prog_t *prog) {
    switch (kind_) {
      case FamilyKind::kSystem:
        return pm_set_program(prog);
      case FamilyKind::kMyThread:
        return pm_set_program_mythread(prog);
      case FamilyKind::kThread:
        return pm_set_program_thread(child_->pid(), child_->pid(), prog);
      case FamilyKind::kMyGroup:
        return pm_set_program_mygroup(prog);
      case FamilyKind::kGroup:
        return pm_set_program_group(child_->pid(), child_->pid(), prog);
    }
    return -1;
  }
  int Start() {
    switch (kind_) {
      case FamilyKind::kSystem:
        return pm_start();
      case FamilyKind::kMyThread:
        return pm_start_mythread();
      case FamilyKind::kThread:
        return pm_start_thread(child_->pid(), child_->pid());
      case FamilyKind::kMyGroup:
        return pm_start_mygroup();
      case FamilyKind::kGroup:
        return pm_start_group(child_->pid(), child_->pid());
    }
    return -1;
  }
  int Stop() {
    switch (kind_) {
      case FamilyKind::kSystem:
        return pm_stop();
      case FamilyKind::kMyThread:
        return pm_stop_mythread();
      case FamilyKind::kThread:
        return pm_stop_thread(child_->pid(), child_->pid());
      case FamilyKind::kMyGroup:
        return pm_stop_mygroup();
      case FamilyKind::kGroup:
        return pm_stop_group(child_->pid(), child_->pid());
    }
    return -1;
  }
  int Reset() {
    switch (kind_) {
      case FamilyKind::kSystem:
        return pm_reset_data();
      case FamilyKind::kMyThread:
        return pm_reset_data_mythread();
      case FamilyKind::kThread:
        return pm_reset_data_thread(child_->pid(), child_->pid());
      case FamilyKind::kMyGroup:
        return pm_reset_data_mygroup();
      case FamilyKind::kGroup:
        return pm_reset_data_group(child_->pid(), child_->pid());
    }
    return -1;
  }
  int Read(pm_data_t *data, pm_accu_time_t *times) {
    switch (kind_) {
      case FamilyKind::kSystem:
        return pm_get_Tdata(data, times);
      case FamilyKind::kMyThread:
        return pm_get_Tdata_mythread(data, times);
      case FamilyKind::kThread:
        return pm_get_Tdata_thread(child_->pid(), child_->pid(), data, times);
      case FamilyKind::kMyGroup:
        return pm_get_Tdata_mygroup(data, times);
      case FamilyKind::kGroup:
        return pm_get_Tdata_group(child_->pid(), child_->pid(), data, times);
    }
    return -1;
  }
  int GetProgram(pm_prog_t *prog) {
    switch (kind_) {
      case FamilyKind::kSystem:
        return pm_get_program(prog);
      case FamilyKind::kMyThread:
        return pm_get_program_mythread(prog);
      case FamilyKind::kThread:
        return pm_get_program_thread(child_->pid(), child_->pid(), prog);
      case FamilyKind::kMyGroup:
        return pm_get_program_mygroup(prog);
      case FamilyKind::kGroup:
        return pm_get_program_group(child_->pid(), child_->pid(), prog);
    }
    return -1;
  }
  int Delete() {
    switch (kind_) {
      case FamilyKind::kSystem:
        return pm_delete_program();
      case FamilyKind::kMyThread:
        return pm_delete_program_mythread();
      case FamilyKind::kThread:
        return pm_delete_program_thread(child_->pid(), child_->pid());
      case FamilyKind::kMyGroup:
        return pm_delete_program_mygroup();
      case FamilyKind::kGroup:
        return pm_delete_program_group(child_->pid(), child_->pid());
    }
    return -1;
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
  pid_t Tid() const { return Remote(kind_) ? child_->pid() : gettid(); }

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
