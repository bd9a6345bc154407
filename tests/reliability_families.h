// The counting families the reliability tests run the same checks on, behind one small
// interface: set/start/stop/reset/read/delete on system-wide counting, the calling thread
// (_mythread), a third-party thread (_thread, a sleeping child process), and the counting
// groups rooted at the calling thread (_mygroup) or at the child (_group). Header-only: every
// tests/*_test.cpp is its own binary and tests/support/ belongs to the shared test support.
#pragma once

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <memory>
#include <string>

#include "pmapi.h"

namespace pmapi_test {

enum class FamilyKind { kSystem, kMyThread, kThread, kMyGroup, kGroup };

inline const char *FamilyName(FamilyKind kind) {
  switch (kind) {
    case FamilyKind::kSystem:
      return "system_wide";
    case FamilyKind::kMyThread:
      return "mythread";
    case FamilyKind::kThread:
      return "thread";
    case FamilyKind::kMyGroup:
      return "mygroup";
    case FamilyKind::kGroup:
      return "group";
  }
  return "?";
}

// A child process that blocks until it is killed: a target for _thread that exists for the
// whole test and never counts anything by itself.
class SleepingChild {
 public:
  SleepingChild() {
    pid_ = fork();
    if (pid_ == 0) {
      for (;;) pause();
    }
  }
  ~SleepingChild() {
    if (pid_ > 0) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
  }
  SleepingChild(const SleepingChild &) = delete;
  SleepingChild &operator=(const SleepingChild &) = delete;
  pid_t pid() const { return pid_; }

 private:
  pid_t pid_ = -1;
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

  // The tid a thread family counts (the calling thread for _mythread).
  pid_t Tid() const { return Remote(kind_) ? child_->pid() : gettid(); }

 private:
  FamilyKind kind_;
  std::unique_ptr<SleepingChild> child_;  // the _thread target; none for the others
};

// Time from pm_accu_time_t's two 32-bit halves.
inline unsigned long long Nanos(const timebasestruct_t &t) {
  return (static_cast<unsigned long long>(t.tb_high) << 32) | t.tb_low;
}

}  // namespace pmapi_test
