// The system-wide family's C entry points: one counter group per online CPU (pid -1), or, with
// proctree, one inherited group per thread of the calling process. They validate, translate
// and call the core's SystemContext (src/core/system_context.h), which serializes them.
#include <unistd.h>

#include "api/c_boundary.h"
#include "api/context_ops.h"
#include "api/multiplex_ops.h"
#include "api/targets.h"
#include "api/timebase.h"
#include "base/last_error.h"
#include "core/system_context.h"

using namespace pmapi;

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

int Set(Status parsed, Program program) {
  std::vector<GroupTarget> threads;
  if (parsed.ok()) parsed = ProctreeTargets(program, &threads);
  return Report(System().Set(parsed, std::move(program), threads));
}

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

int ReadCpu(int cpu, CpuNumbering numbering, pm_data_t *data, timebasestruct_t *stamp,
            pm_accu_time_t *times) {
  CounterValues values;
  const SystemRead result = System().ReadCpu(cpu, numbering, data ? &values : nullptr);
  if (data) CopyOut(values, data);
  return Finish(result, stamp, times);
}

int ReadAll(pm_data_t *data, timebasestruct_t *stamp, pm_accu_time_t *times) {
  CounterValues values;
  const SystemRead result = System().ReadAll(data ? &values : nullptr);
  if (data) CopyOut(values, data);
  return Finish(result, stamp, times);
}

// pm_start and pm_stop are pm_tstart and pm_tstop without a time stamp.
int StartSystem(timebasestruct_t *time) {
  return Guarded([&] {
    const int rc = Report(System().Start());
    if (rc == 0 && time) StampNow(time);
    return rc;
  });
}

int StopSystem(timebasestruct_t *time) {
  return Guarded([&] {
    const int rc = Report(System().Stop());
    if (rc == 0 && time) StampNow(time);
    return rc;
  });
}

}  // namespace

extern "C" {

int pm_set_program(pm_prog_t *prog) {
  return Guarded([&] {
    Program program;
    Status status = ProgramFromClient(prog, &program);
    return Set(status, std::move(program));
  });
}

int pm_get_program(pm_prog_t *prog) {
  return Guarded([&] {
    return System().Locked([&](Context *context) {
      return context ? GetProgramOf(context, prog) : NoProgram(kFamily);
    });
  });
}

int pm_delete_program(void) {
  return Guarded([&] { return Report(System().Delete()); });
}

int pm_start(void) { return StartSystem(nullptr); }

int pm_tstart(timebasestruct_t *time) { return time ? StartSystem(time) : NullArgument("time"); }

int pm_stop(void) { return StopSystem(nullptr); }

int pm_tstop(timebasestruct_t *time) { return time ? StopSystem(time) : NullArgument("time"); }

int pm_reset_data(void) {
  return Guarded([&] { return Report(System().Reset()); });
}

int pm_get_data(pm_data_t *data) {
  return Guarded([&] { return ReadAll(data, nullptr, nullptr); });
}

int pm_get_tdata(pm_data_t *data, timebasestruct_t *time) {
  return Guarded([&] {
    if (!time) return Report(Pmapi_InvalidArg, "time is NULL");
    return ReadAll(data, time, nullptr);
  });
}

int pm_get_Tdata(pm_data_t *data, pm_accu_time_t *times) {
  return Guarded([&] {
    if (!times) return Report(Pmapi_InvalidArg, "times is NULL");
    return ReadAll(data, nullptr, times);
  });
}

int pm_get_data_cpu(int cpuid, pm_data_t *data) {
  return Guarded([&] { return ReadCpu(cpuid, CpuNumbering::kDense, data, nullptr, nullptr); });
}

int pm_get_tdata_cpu(int cpuid, pm_data_t *data, timebasestruct_t *time) {
  return Guarded([&] {
    if (!time) return Report(Pmapi_InvalidArg, "time is NULL");
    return ReadCpu(cpuid, CpuNumbering::kDense, data, time, nullptr);
  });
}

int pm_get_Tdata_cpu(int cpuid, pm_data_t *data, pm_accu_time_t *times) {
  return Guarded([&] {
    if (!times) return Report(Pmapi_InvalidArg, "times is NULL");
    return ReadCpu(cpuid, CpuNumbering::kDense, data, nullptr, times);
  });
}

int pm_get_data_lcpu(int lcpuid, pm_data_t *data) {
  return Guarded([&] { return ReadCpu(lcpuid, CpuNumbering::kLinux, data, nullptr, nullptr); });
}

int pm_get_tdata_lcpu(int lcpuid, pm_data_t *data, timebasestruct_t *time) {
  return Guarded([&] {
    if (!time) return Report(Pmapi_InvalidArg, "time is NULL");
    return ReadCpu(lcpuid, CpuNumbering::kLinux, data, time, nullptr);
  });
}

int pm_get_Tdata_lcpu(int lcpuid, pm_data_t *data, pm_accu_time_t *times) {
  return Guarded([&] {
    if (!times) return Report(Pmapi_InvalidArg, "times is NULL");
    return ReadCpu(lcpuid, CpuNumbering::kLinux, data, nullptr, times);
  });
}

}  // extern "C"

// The multiplexed (_mx) and multi-mode (_mm) forms: the same system context, its program
// carrying every set (each set one group per CPU); start, stop, reset and delete are the plain
// calls. A CPU that went offline is not detected here: its sets' counting times show it.
namespace {

template <typename Get>
int GetSystemProgram(Get get) {
  return System().Locked(
      [&](Context *context) { return context ? get(*context) : NoProgram(kFamily); });
}

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

}  // namespace

extern "C" {

int pm_set_program_mx(pm_prog_mx_t *prog) {
  return Guarded([&] {
    Program program;
    Status status = ProgramFromMx(prog, &program);
    return Set(status, std::move(program));
  });
}

int pm_set_program_mm(pm_prog_mm_t *prog) {
  return Guarded([&] {
    Program program;
    Status status = ProgramFromMm(prog, &program);
    return Set(status, std::move(program));
  });
}

int pm_get_program_mx(pm_prog_mx_t *prog) {
  return Guarded([&] {
    return GetSystemProgram(
        [&](const Context &c) { return GetProgramMx(c.program(), c.counting(), prog); });
  });
}

int pm_get_program_mm(pm_prog_mm_t *prog) {
  return Guarded([&] {
    return GetSystemProgram(
        [&](const Context &c) { return GetProgramMm(c.program(), c.counting(), prog); });
  });
}

int pm_get_data_mx(pm_data_mx_t *data) {
  return Guarded([&] { return ReadSystemMx(0, false, CpuNumbering::kDense, data, nullptr); });
}

int pm_get_tdata_mx(pm_data_mx_t *data, timebasestruct_t *time) {
  return Guarded([&] {
    return time ? ReadSystemMx(0, false, CpuNumbering::kDense, data, time) : NullArgument("time");
  });
}

int pm_get_data_cpu_mx(int cpuid, pm_data_mx_t *data) {
  return Guarded([&] { return ReadSystemMx(cpuid, true, CpuNumbering::kDense, data, nullptr); });
}

int pm_get_tdata_cpu_mx(int cpuid, pm_data_mx_t *data, timebasestruct_t *time) {
  return Guarded([&] {
    return time ? ReadSystemMx(cpuid, true, CpuNumbering::kDense, data, time)
                : NullArgument("time");
  });
}

int pm_get_data_lcpu_mx(int lcpuid, pm_data_mx_t *data) {
  return Guarded([&] { return ReadSystemMx(lcpuid, true, CpuNumbering::kLinux, data, nullptr); });
}

int pm_get_tdata_lcpu_mx(int lcpuid, pm_data_mx_t *data, timebasestruct_t *time) {
  return Guarded([&] {
    return time ? ReadSystemMx(lcpuid, true, CpuNumbering::kLinux, data, time)
                : NullArgument("time");
  });
}

}  // extern "C"
