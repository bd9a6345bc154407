// SPDX-License-Identifier: MIT
#include "pmapi_counting.h"

#include <pmapi_settings.h>
#include <stdlib.h>
#include <string.h>

#include <memory>

namespace tools {
namespace {

uint64_t Nanoseconds(timebasestruct_t t) {
  if (time_base_to_time(&t, TIMEBASE_SZ) != 0) return 0;
  return static_cast<uint64_t>(t.tb_high) * 1000000000u + t.tb_low;
}

// A copy of `prog` that counts from the set on when `on`, else stays off until Start (-D).
// The tools never print ginfo.members: their groups spare the kernel the tracepoint that counts
// them (registering and unregistering it costs more than `true` runs). An option of the tools'
// own programs: a program the tool does not set keeps its counter.
pm_prog_mx_t CountingFrom(const pm_prog_mx_t &prog, bool on) {
  pm_prog_mx_t program = prog;
  if (on) program.mode.w |= PM_COUNT;
  program.mode.w |= PM_NO_FORK_COUNTER;
  return program;
}

// Appends the sets of one _mx read (rc from pm_get_data*_mx) at `target` of `targets`.
void FillSets(int rc, const pm_data_mx_t &data, size_t target, size_t targets, int *rounds,
              std::vector<Sample> *samples) {
  for (size_t k = 0; k * targets + target < samples->size(); ++k) {
    Sample &sample = (*samples)[k * targets + target];
    sample.rc = rc;
    if (rc != 0 || static_cast<int>(k) >= data.nb_accu_mx) {
      if (rc == 0) sample.rc = Pmapi_NoSetProg;  // fewer sets than programmed: no data
      continue;
    }
    const pm_accu_mx_t &accu = data.accu_set[k];
    for (int i = 0; i < MAX_COUNTERS; ++i)
      sample.values[i] = static_cast<uint64_t>(accu.accu_data[i]);
    sample.running_ns = Nanoseconds(accu.accu_time);
    sample.enabled_ns = sample.running_ns;
  }
  if (rc == 0) *rounds = data.nb_mx_round;
}

class CommandCountingMx : public Counting {
 public:
  // `thread`: an attached thread's context (the _thread family), else a counting group's.
  CommandCountingMx(pid_t pid, pid_t tid, bool thread, size_t sets)
      : pid_(pid), tid_(tid), thread_(thread), sets_(sets) {}
  ~CommandCountingMx() override { Delete(); }

  int Read(std::vector<Sample> *samples) override {
    pm_data_mx_t data;
    memset(&data, 0, sizeof data);
    const int rc = thread_ ? pm_get_data_thread_mx(pid_, tid_, &data)
                           : pm_get_data_group_mx(pid_, tid_, &data);
    samples->assign(sets_, Sample());
    FillSets(rc, data, 0, 1, &rounds_, samples);
    free(data.accu_set);  // the library allocates it, as on AIX
    return rc;
  }

  void DeleteProgram() override {
    if (thread_) {
      pm_delete_program_thread(pid_, tid_);
    } else {
      pm_delete_program_group(pid_, tid_);
    }
  }

  int Start() override { return pm_start_group(pid_, tid_); }

  int rounds() const override { return rounds_; }

 private:
  pid_t pid_, tid_;
  bool thread_;
  size_t sets_;
  int rounds_ = -1;
};

class SystemCountingMx : public Counting {
 public:
  SystemCountingMx(std::vector<int> cpus, size_t sets) : cpus_(std::move(cpus)), sets_(sets) {}
  ~SystemCountingMx() override { Delete(); }

  int Read(std::vector<Sample> *samples) override {
    samples->assign(sets_ * cpus_.size(), Sample());
    for (size_t i = 0; i < cpus_.size(); ++i) {
      pm_data_mx_t data;
      memset(&data, 0, sizeof data);
      const int rc = pm_get_data_lcpu_mx(cpus_[i], &data);
      FillSets(rc, data, i, cpus_.size(), &rounds_, samples);
      free(data.accu_set);
    }
    return 0;
  }

  void DeleteProgram() override { pm_delete_program(); }

  int Start() override { return pm_start(); }

  int rounds() const override { return rounds_; }

 private:
  std::vector<int> cpus_;
  size_t sets_;
  int rounds_ = -1;
};

}  // namespace

int CountCommandMx(pid_t pid, const pm_prog_mx_t &prog, bool on, std::unique_ptr<Counting> *out) {
  pm_prog_mx_t program = CountingFrom(prog, on);
  const int rc = pm_set_program_group_mx(pid, pid, &program);
  if (rc == 0) {
    out->reset(new CommandCountingMx(pid, pid, false, static_cast<size_t>(prog.nb_events_prog)));
  }
  return rc;
}

int CountAttachedMx(const AttachTarget &target, const pm_prog_mx_t &prog,
                    std::unique_ptr<Counting> *out) {
  pm_prog_mx_t program = CountingFrom(prog, true);
  int rc;
  if (target.whole_process) {
    program.mode.w |= PM_PROCESS;
    rc = pm_set_program_group_mx(target.pid, target.tid, &program);
  } else {
    rc = pm_set_program_thread_mx(target.pid, target.tid, &program);
  }
  if (rc == 0) {
    out->reset(new CommandCountingMx(target.pid, target.tid, !target.whole_process,
                                     static_cast<size_t>(prog.nb_events_prog)));
  }
  return rc;
}

int CountSystemWideMx(const pm_prog_mx_t &prog, std::vector<int> cpus, bool on,
                      std::unique_ptr<Counting> *out) {
  pm_prog_mx_t program = CountingFrom(prog, on);
  const int rc = pm_set_program_mx(&program);
  if (rc == 0) {
    out->reset(new SystemCountingMx(std::move(cpus), static_cast<size_t>(prog.nb_events_prog)));
  }
  return rc;
}

}  // namespace tools
