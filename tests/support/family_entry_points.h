/* SPDX-License-Identifier: MIT */
// Every counting family's entry points, one row per C function, named by the call itself so
// that the name and the call cannot drift apart. tests/api/entry_points_test.cpp runs each row
// and checks the table against pmapi.h; the family matrix and the reliability tests drive the
// same rows, so a family's calls are written once for the whole suite.
#pragma once

#include <sys/types.h>

#include <functional>
#include <string>
#include <vector>

#include "pmapi.h"
#include "support/enum_names.h"

namespace pmapi_test {

// What an entry point may be handed; each row takes what its prototype needs.
struct Args {
  pm_prog_t *prog = nullptr;
  pm_data_t *data = nullptr;
  timebasestruct_t *time = nullptr;
  pm_accu_time_t *times = nullptr;
  int cpu = 0;
};

// One entry point: its name (from the call itself, so the two cannot drift) and the call.
struct Op {
  std::string name;
  std::function<int(const Args &)> call;
  int operator()(const Args &args) const { return call(args); }
};

#define ROW(function, ...)                                                   \
  Op {                                                                       \
#function, [=](const Args &a) { return (void)a, function(__VA_ARGS__); } \
  }

struct FamilyOps {
  std::string family;
  Op set, get_program, del, start, tstart, stop, tstop, reset, get_data, get_tdata, get_Tdata;
  std::vector<Op> cpu_reads;  // system-wide only: _cpu/_lcpu x data/tdata/Tdata, by a.cpu

  std::vector<const Op *> All() const {
    std::vector<const Op *> all = {&set,   &get_program, &del,      &start,     &tstart,   &stop,
                                   &tstop, &reset,       &get_data, &get_tdata, &get_Tdata};
    for (const Op &op : cpu_reads) all.push_back(&op);
    return all;
  }

  // The calls by what they do, for tests that run one sequence on every family.
  int Set(pm_prog_t *prog) const { return set(With(prog, nullptr, nullptr)); }
  int GetProgram(pm_prog_t *prog) const { return get_program(With(prog, nullptr, nullptr)); }
  int Start() const { return start(Args{}); }
  int Stop() const { return stop(Args{}); }
  int Reset() const { return reset(Args{}); }
  // get_data, or get_Tdata when the times are asked for too.
  int Read(pm_data_t *data, pm_accu_time_t *times = nullptr) const {
    return times ? get_Tdata(With(nullptr, data, times)) : get_data(With(nullptr, data, nullptr));
  }
  int Delete() const { return del(Args{}); }

 private:
  static Args With(pm_prog_t *prog, pm_data_t *data, pm_accu_time_t *times) {
    Args a;
    a.prog = prog;
    a.data = data;
    a.times = times;
    return a;
  }
};

inline FamilyOps SystemWide() {
  return {"system_wide",
          ROW(pm_set_program, a.prog),
          ROW(pm_get_program, a.prog),
          ROW(pm_delete_program),
          ROW(pm_start),
          ROW(pm_tstart, a.time),
          ROW(pm_stop),
          ROW(pm_tstop, a.time),
          ROW(pm_reset_data),
          ROW(pm_get_data, a.data),
          ROW(pm_get_tdata, a.data, a.time),
          ROW(pm_get_Tdata, a.data, a.times),
          {ROW(pm_get_data_cpu, a.cpu, a.data), ROW(pm_get_tdata_cpu, a.cpu, a.data, a.time),
           ROW(pm_get_Tdata_cpu, a.cpu, a.data, a.times), ROW(pm_get_data_lcpu, a.cpu, a.data),
           ROW(pm_get_tdata_lcpu, a.cpu, a.data, a.time),
           ROW(pm_get_Tdata_lcpu, a.cpu, a.data, a.times)}};
}

inline FamilyOps MyThread() {
  return {"mythread",
          ROW(pm_set_program_mythread, a.prog),
          ROW(pm_get_program_mythread, a.prog),
          ROW(pm_delete_program_mythread),
          ROW(pm_start_mythread),
          ROW(pm_tstart_mythread, a.time),
          ROW(pm_stop_mythread),
          ROW(pm_tstop_mythread, a.time),
          ROW(pm_reset_data_mythread),
          ROW(pm_get_data_mythread, a.data),
          ROW(pm_get_tdata_mythread, a.data, a.time),
          ROW(pm_get_Tdata_mythread, a.data, a.times),
          {}};
}

inline FamilyOps MyGroup() {
  return {"mygroup",
          ROW(pm_set_program_mygroup, a.prog),
          ROW(pm_get_program_mygroup, a.prog),
          ROW(pm_delete_program_mygroup),
          ROW(pm_start_mygroup),
          ROW(pm_tstart_mygroup, a.time),
          ROW(pm_stop_mygroup),
          ROW(pm_tstop_mygroup, a.time),
          ROW(pm_reset_data_mygroup),
          ROW(pm_get_data_mygroup, a.data),
          ROW(pm_get_tdata_mygroup, a.data, a.time),
          ROW(pm_get_Tdata_mygroup, a.data, a.times),
          {}};
}

inline FamilyOps Thread(pid_t pid, tid_t tid) {
  return {"thread",
          ROW(pm_set_program_thread, pid, tid, a.prog),
          ROW(pm_get_program_thread, pid, tid, a.prog),
          ROW(pm_delete_program_thread, pid, tid),
          ROW(pm_start_thread, pid, tid),
          ROW(pm_tstart_thread, pid, tid, a.time),
          ROW(pm_stop_thread, pid, tid),
          ROW(pm_tstop_thread, pid, tid, a.time),
          ROW(pm_reset_data_thread, pid, tid),
          ROW(pm_get_data_thread, pid, tid, a.data),
          ROW(pm_get_tdata_thread, pid, tid, a.data, a.time),
          ROW(pm_get_Tdata_thread, pid, tid, a.data, a.times),
          {}};
}

// ptid 0: Linux threads have no separate pthread id (docs/counting.md).
inline FamilyOps Pthread(pid_t pid, tid_t tid) {
  return {"pthread",
          ROW(pm_set_program_pthread, pid, tid, 0, a.prog),
          ROW(pm_get_program_pthread, pid, tid, 0, a.prog),
          ROW(pm_delete_program_pthread, pid, tid, 0),
          ROW(pm_start_pthread, pid, tid, 0),
          ROW(pm_tstart_pthread, pid, tid, 0, a.time),
          ROW(pm_stop_pthread, pid, tid, 0),
          ROW(pm_tstop_pthread, pid, tid, 0, a.time),
          ROW(pm_reset_data_pthread, pid, tid, 0),
          ROW(pm_get_data_pthread, pid, tid, 0, a.data),
          ROW(pm_get_tdata_pthread, pid, tid, 0, a.data, a.time),
          ROW(pm_get_Tdata_pthread, pid, tid, 0, a.data, a.times),
          {}};
}

inline FamilyOps Group(pid_t pid, tid_t tid) {
  return {"group",
          ROW(pm_set_program_group, pid, tid, a.prog),
          ROW(pm_get_program_group, pid, tid, a.prog),
          ROW(pm_delete_program_group, pid, tid),
          ROW(pm_start_group, pid, tid),
          ROW(pm_tstart_group, pid, tid, a.time),
          ROW(pm_stop_group, pid, tid),
          ROW(pm_tstop_group, pid, tid, a.time),
          ROW(pm_reset_data_group, pid, tid),
          ROW(pm_get_data_group, pid, tid, a.data),
          ROW(pm_get_tdata_group, pid, tid, a.data, a.time),
          ROW(pm_get_Tdata_group, pid, tid, a.data, a.times),
          {}};
}

inline FamilyOps Pgroup(pid_t pid, tid_t tid) {
  return {"pgroup",
          ROW(pm_set_program_pgroup, pid, tid, 0, a.prog),
          ROW(pm_get_program_pgroup, pid, tid, 0, a.prog),
          ROW(pm_delete_program_pgroup, pid, tid, 0),
          ROW(pm_start_pgroup, pid, tid, 0),
          ROW(pm_tstart_pgroup, pid, tid, 0, a.time),
          ROW(pm_stop_pgroup, pid, tid, 0),
          ROW(pm_tstop_pgroup, pid, tid, 0, a.time),
          ROW(pm_reset_data_pgroup, pid, tid, 0),
          ROW(pm_get_data_pgroup, pid, tid, 0, a.data),
          ROW(pm_get_tdata_pgroup, pid, tid, 0, a.data, a.time),
          ROW(pm_get_Tdata_pgroup, pid, tid, 0, a.data, a.times),
          {}};
}

#undef ROW

// The families by name, in the order of pmapi.h.
enum class FamilyKind { kSystem, kMyThread, kThread, kPthread, kMyGroup, kGroup, kPgroup };

inline const char *FamilyName(FamilyKind family) {
  static const char *const kNames[] = {"system_wide", "mythread", "thread", "pthread",
                                       "mygroup",     "group",    "pgroup"};
  return EnumName(family, kNames);
}

// Whether the family counts another process (the tests' child), by its pid and tid.
inline bool IsRemote(FamilyKind family) {
  return family == FamilyKind::kThread || family == FamilyKind::kPthread ||
         family == FamilyKind::kGroup || family == FamilyKind::kPgroup;
}

// The family's entry points; the remote ones on the process `target` (its main thread).
inline FamilyOps OpsFor(FamilyKind family, pid_t target) {
  switch (family) {
    case FamilyKind::kSystem:
      return SystemWide();
    case FamilyKind::kMyThread:
      return MyThread();
    case FamilyKind::kThread:
      return Thread(target, target);
    case FamilyKind::kPthread:
      return Pthread(target, target);
    case FamilyKind::kMyGroup:
      return MyGroup();
    case FamilyKind::kGroup:
      return Group(target, target);
    case FamilyKind::kPgroup:
      return Pgroup(target, target);
  }
  return SystemWide();
}

}  // namespace pmapi_test
