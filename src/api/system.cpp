// SPDX-License-Identifier: MIT
// The system-wide family's C entry points: one counter group per online CPU (pid -1), or, with
// proctree, one inherited group per thread of the calling process. They validate, translate
// and call the core's SystemContext (src/core/system_context.h), which serializes them. The
// _mx and _mm forms are the same system context, its program carrying every set (each set one
// group per CPU); start, stop, reset and delete are the plain calls. A CPU that went offline is
// not detected by an _mx read: its sets' counting times show it.
#include <unistd.h>

#include "api/context_ops.h"
#include "api/family_entry_points.h"
#include "api/multiplex_ops.h"
#include "api/targets.h"
#include "api/timebase.h"
#include "base/last_error.h"
#include "core/system_context.h"

using namespace pmapi;

namespace system_family {
namespace {

constexpr const char kFamily[] = "system-wide";

SystemContext &System() { return SystemContext::Get(); }

// A proctree program counts the calling process's threads that exist now; `inherit` adds every
// thread and process they create afterwards.
Status ProctreeTargets(const Program &program, std::vector<GroupTarget> *targets) {
  if (!program.proctree()) return Status::Ok();
  Status status = ProcessThreads(getpid(), gettid(), targets);
  for (GroupTarget &target : *targets) target.inherit = true;
  return status;
}

int SetParsed(Status parsed, Program program) {
  std::vector<GroupTarget> threads;
  if (parsed.ok()) parsed = ProctreeTargets(program, &threads);
  return Report(System().Set(parsed, std::move(program), threads));
}

// Runs `get` on the system context under its lock, or reports that there is none.
template <typename Get>
int WithProgram(Get get) {
  return System().Locked(
      [&](Context *context) { return context ? get(*context) : NoProgram(kFamily); });
}

int Get(pm_prog_t *prog) {
  return WithProgram([&](const Context &c) { return GetProgramOf(&c, prog); });
}

int GetMx(pm_prog_mx_t *prog) {
  return WithProgram(
      [&](const Context &c) { return GetProgramMx(c.program(), c.counting(), prog); });
}

int GetMm(pm_prog_mm_t *prog) {
  return WithProgram(
      [&](const Context &c) { return GetProgramMm(c.program(), c.counting(), prog); });
}

int Delete() { return Report(System().Delete()); }

int Start(timebasestruct_t *time) {
  const int rc = Report(System().Start());
  if (rc == 0 && time) StampNow(time);
  return rc;
}

int Stop(timebasestruct_t *time) {
  const int rc = Report(System().Stop());
  if (rc == 0 && time) StampNow(time);
  return rc;
}

int Reset() { return Report(System().Reset()); }

// After a read: the status, the stamp and the counting times, as every family's reads give them.
int Finish(const SystemRead &result, timebasestruct_t *stamp, pm_accu_time_t *times) {
  const int rc = Report(result.status);
  if (!result.read) return rc;
  if (stamp) StampNow(stamp);
  if (times) {
    // accu_timebase: time the counters were enabled; PURR and SPURR (POWER
    // processor-utilization registers): the time they actually ran.
    TicksToTimebase(result.times.enabled, &times->accu_timebase);
    TicksToTimebase(result.times.running, &times->accu_purr);
    TicksToTimebase(result.times.running, &times->accu_spurr);
  }
  return rc;
}

int Read(pm_data_t *data, timebasestruct_t *stamp, pm_accu_time_t *times) {
  CounterValues values;
  const SystemRead result = System().ReadAll(data ? &values : nullptr);
  if (data) CopyOut(values, data);
  return Finish(result, stamp, times);
}

int ReadCpu(int cpu, CpuNumbering numbering, pm_data_t *data, timebasestruct_t *stamp,
            pm_accu_time_t *times) {
  CounterValues values;
  const SystemRead result = System().ReadCpu(cpu, numbering, data ? &values : nullptr);
  if (data) CopyOut(values, data);
  return Finish(result, stamp, times);
}

// An _mx read of every CPU (by_cpu false) or of one.
int ReadSystemMx(int cpu, bool by_cpu, CpuNumbering numbering, pm_data_mx_t *data,
                 timebasestruct_t *time) {
  return System().Locked([&](Context *context) {
    if (!context) return NoProgram(kFamily);
    int group = -1;
    if (by_cpu) {
      Status status = System().GroupForCpu(cpu, numbering, &group);
      if (!status.ok()) return Report(status);
    }
    return ReadContextMx(context, group, data, time);
  });
}

int ReadMx(pm_data_mx_t *data, timebasestruct_t *time) {
  return ReadSystemMx(0, false, CpuNumbering::kDense, data, time);
}

}  // namespace
}  // namespace system_family

PMAPI_IMPLICIT_TARGET_ENTRY_POINTS(, system_family)

// The reads of one CPU, by its dense cpuid (_cpu) or its Linux number (_lcpu).
#define PMAPI_SYSTEM_CPU_READS(suffix, numbering)                                          \
  int pm_get_data##suffix(int cpu, pm_data_t *data) {                                      \
    return Guarded(                                                                        \
        [&] { return system_family::ReadCpu(cpu, numbering, data, nullptr, nullptr); });   \
  }                                                                                        \
  int pm_get_tdata##suffix(int cpu, pm_data_t *data, timebasestruct_t *time) {             \
    return GuardedTimed(time, "time", [&] {                                                \
      return system_family::ReadCpu(cpu, numbering, data, time, nullptr);                  \
    });                                                                                    \
  }                                                                                        \
  int pm_get_Tdata##suffix(int cpu, pm_data_t *data, pm_accu_time_t *times) {              \
    return GuardedTimed(times, "times", [&] {                                              \
      return system_family::ReadCpu(cpu, numbering, data, nullptr, times);                 \
    });                                                                                    \
  }                                                                                        \
  int pm_get_data##suffix##_mx(int cpu, pm_data_mx_t *data) {                              \
    return Guarded(                                                                        \
        [&] { return system_family::ReadSystemMx(cpu, true, numbering, data, nullptr); }); \
  }                                                                                        \
  int pm_get_tdata##suffix##_mx(int cpu, pm_data_mx_t *data, timebasestruct_t *time) {     \
    return GuardedTimed(time, "time", [&] {                                                \
      return system_family::ReadSystemMx(cpu, true, numbering, data, time);                \
    });                                                                                    \
  }

extern "C" {
PMAPI_SYSTEM_CPU_READS(_cpu, CpuNumbering::kDense)
PMAPI_SYSTEM_CPU_READS(_lcpu, CpuNumbering::kLinux)
}  // extern "C"
