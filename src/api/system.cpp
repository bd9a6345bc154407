// The system-wide family: one counter group per online CPU (pid -1), or,
// with proctree, one inherited group per thread of the calling process.
// Every call holds the registry's system_calls lock: calls from several
// threads are serialized.
#include <unistd.h>

#include <mutex>

#include "api/c_boundary.h"
#include "api/context_ops.h"
#include "api/multiplex_ops.h"
#include "api/targets.h"
#include "core/enabled_clock.h"
#include "core/kernel.h"
#include "core/last_error.h"
#include "core/registry.h"
#include "core/timebase.h"
#include "topology/topology.h"

using namespace pmapi;

namespace {

constexpr const char kFamily[] = "system-wide";

Status SystemTargets(bool proctree, std::vector<GroupTarget> *targets) {
  if (proctree) {
    // The calling process's threads that exist now; `inherit` adds every
    // thread and process they create afterwards.
    Status status = ProcessThreads(getpid(), gettid(), targets);
    if (!status.ok()) return status;
    for (GroupTarget &target : *targets) target.inherit = true;
    return Status::Ok();
  }
  // The kernel's online list, read at every set (a CPU may have come or gone
  // since the last one): microseconds, where an hwloc load costs milliseconds.
  Topology topology;
  Status status = Topology::LoadOnlineCpusFromSysfs(&topology);
  if (!status.ok()) return status;
  for (const CpuInfo &cpu : topology.cpus()) {
    GroupTarget target;
    target.cpu = cpu.linux_cpu;
    target.description = "CPU " + std::to_string(cpu.linux_cpu);
    targets->push_back(target);
  }
  return Status::Ok();
}

Context *System() { return Registry::Get().system_context(); }

// The system context's counting time by the wall clock (guarded by system_calls, like the
// context), to tell a CPU whose counters the kernel switched off (hotplug) from one that counts.
EnabledClock g_clock;

// Counters enabled this much less than the wall clock says are off: 1 ms, plus 0.1% for the
// kernel's per-CPU clock running at a slightly different rate from CLOCK_MONOTONIC.
bool LagsBehind(uint64_t enabled, uint64_t expected) {
  return enabled + 1000000 + expected / 1000 < expected;
}

Status CpuStopped(int linux_cpu, uint64_t enabled, uint64_t expected) {
  Topology online;
  const bool offline_now =
      Topology::LoadOnlineCpusFromSysfs(&online).ok() && online.DenseIndexOf(linux_cpu) < 0;
  const std::string counted = " (its counters ran " + std::to_string(enabled / 1000000) +
                              " ms of the " + std::to_string(expected / 1000000) +
                              " ms counted since set or reset)";
  const char *when =
      offline_now ? " went offline after pm_set_program" : " was offline for a while since set";
  return Status(Pmapi_CpuNotCounted,
                "CPU " + std::to_string(linux_cpu) + when + counted +
                    "; the kernel stopped its counters and does not restart them when the CPU "
                    "comes back: set the program again once it is online");
}

// Maps a _cpu/_lcpu argument to a group index, or fails.
Status GroupForCpu(int cpu, bool dense, int *group) {
  if (System()->program().proctree()) {
    return Status(Pmapi_NotSystemWide,
                  "the system-wide program counts a process tree (proctree), not CPUs");
  }
  const std::vector<GroupTarget> &targets = System()->targets();
  const int n = static_cast<int>(targets.size());
  if (dense) {
    if (cpu < 0 || cpu >= n) {
      return Status(Pmapi_InvalidCpu, "cpuid " + std::to_string(cpu) + " is not in 0.." +
                                          std::to_string(n - 1) + " (the CPUs online at set time)");
    }
    *group = cpu;
    return Status::Ok();
  }
  for (int i = 0; i < n; ++i) {
    if (targets[i].cpu == cpu) {
      *group = i;
      return Status::Ok();
    }
  }
  const long configured = sysconf(_SC_NPROCESSORS_CONF);
  if (cpu < 0 || cpu >= configured) {
    return Status(Pmapi_InvalidCpu, "lcpuid " + std::to_string(cpu) +
                                        " is not a CPU of this "
                                        "machine (0.." +
                                        std::to_string(configured - 1) + ")");
  }
  return Status(Pmapi_CpuNotCounted, "CPU " + std::to_string(cpu) +
                                         " was offline at pm_set_program, so it was not counted");
}

int ReadCpu(int cpu, bool dense, pm_data_t *data, timebasestruct_t *stamp, pm_accu_time_t *times) {
  std::lock_guard<std::mutex> lock(Registry::Get().system_calls());
  if (!System()) return NoProgram(kFamily);
  int group = 0;
  Status status = GroupForCpu(cpu, dense, &group);
  if (!status.ok()) return Report(status);
  // Taken before the read, so that a CPU that counts all along never looks behind.
  const uint64_t expected = g_clock.At(MonotonicNanos());
  pm_accu_time_t counted;
  int rc = ReadContext(System(), group, data, stamp, &counted);
  if (times) *times = counted;
  if (rc != 0 && rc != Pmapi_Multiplexed) return rc;
  const uint64_t enabled =
      (static_cast<uint64_t>(counted.accu_timebase.tb_high) << 32) | counted.accu_timebase.tb_low;
  if (LagsBehind(enabled, expected)) {
    return Report(CpuStopped(System()->targets()[group].cpu, enabled, expected));
  }
  return rc;
}

int ReadAll(pm_data_t *data, timebasestruct_t *stamp, pm_accu_time_t *times) {
  std::lock_guard<std::mutex> lock(Registry::Get().system_calls());
  if (!System()) return NoProgram(kFamily);
  return ReadContext(System(), -1, data, stamp, times);
}

// pm_start and pm_stop are pm_tstart and pm_tstop without a time stamp.
int StartSystem(timebasestruct_t *time) {
  return Guarded([&] {
    std::lock_guard<std::mutex> lock(Registry::Get().system_calls());
    if (!System()) return NoProgram(kFamily);
    int rc = StartContext(System(), time);
    if (rc == 0) g_clock.Started(MonotonicNanos());
    return rc;
  });
}

int StopSystem(timebasestruct_t *time) {
  return Guarded([&] {
    std::lock_guard<std::mutex> lock(Registry::Get().system_calls());
    if (!System()) return NoProgram(kFamily);
    const uint64_t before = MonotonicNanos();
    int rc = StopContext(System(), time);
    if (!System()->counting()) g_clock.Stopped(before);
    return rc;
  });
}

}  // namespace

extern "C" {

int pm_set_program(pm_prog_t *prog) {
  return Guarded([&] {
    Registry &registry = Registry::Get();
    std::lock_guard<std::mutex> lock(registry.system_calls());
    if (System()) {
      return Report(Pmapi_ProgExists,
                    "the system-wide context is already programmed; pm_delete_program first");
    }
    Program program;
    Status status = ProgramFromClient(prog, &program);
    if (status.ok()) status = registry.CheckSystemAllowed();
    std::vector<GroupTarget> targets;
    if (status.ok()) status = SystemTargets(program.proctree(), &targets);
    std::unique_ptr<Context> context;
    if (status.ok())
      status = Context::Create(std::move(program), targets, prog->mode.b.count, &context);
    if (status.ok()) status = registry.AdoptSystem(std::move(context));
    if (status.ok()) {
      g_clock.Clear();
      if (prog->mode.b.count) g_clock.Started(MonotonicNanos());
    }
    return Report(status);
  });
}

int pm_get_program(pm_prog_t *prog) {
  return Guarded([&] {
    std::lock_guard<std::mutex> lock(Registry::Get().system_calls());
    if (!System()) return NoProgram(kFamily);
    return GetProgramOf(System(), prog);
  });
}

int pm_delete_program(void) {
  return Guarded([&] {
    Registry &registry = Registry::Get();
    std::lock_guard<std::mutex> lock(registry.system_calls());
    if (!System()) return NoProgram(kFamily);
    registry.DropSystem();
    return 0;
  });
}

int pm_start(void) { return StartSystem(nullptr); }

int pm_tstart(timebasestruct_t *time) { return time ? StartSystem(time) : NullArgument("time"); }

int pm_stop(void) { return StopSystem(nullptr); }

int pm_tstop(timebasestruct_t *time) { return time ? StopSystem(time) : NullArgument("time"); }

int pm_reset_data(void) {
  return Guarded([&] {
    std::lock_guard<std::mutex> lock(Registry::Get().system_calls());
    if (!System()) return NoProgram(kFamily);
    int rc = ResetContext(System());
    if (rc == 0) g_clock.Reset(MonotonicNanos());
    return rc;
  });
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
  return Guarded([&] { return ReadCpu(cpuid, true, data, nullptr, nullptr); });
}

int pm_get_tdata_cpu(int cpuid, pm_data_t *data, timebasestruct_t *time) {
  return Guarded([&] {
    if (!time) return Report(Pmapi_InvalidArg, "time is NULL");
    return ReadCpu(cpuid, true, data, time, nullptr);
  });
}

int pm_get_Tdata_cpu(int cpuid, pm_data_t *data, pm_accu_time_t *times) {
  return Guarded([&] {
    if (!times) return Report(Pmapi_InvalidArg, "times is NULL");
    return ReadCpu(cpuid, true, data, nullptr, times);
  });
}

int pm_get_data_lcpu(int lcpuid, pm_data_t *data) {
  return Guarded([&] { return ReadCpu(lcpuid, false, data, nullptr, nullptr); });
}

int pm_get_tdata_lcpu(int lcpuid, pm_data_t *data, timebasestruct_t *time) {
  return Guarded([&] {
    if (!time) return Report(Pmapi_InvalidArg, "time is NULL");
    return ReadCpu(lcpuid, false, data, time, nullptr);
  });
}

int pm_get_Tdata_lcpu(int lcpuid, pm_data_t *data, pm_accu_time_t *times) {
  return Guarded([&] {
    if (!times) return Report(Pmapi_InvalidArg, "times is NULL");
    return ReadCpu(lcpuid, false, data, nullptr, times);
  });
}

}  // extern "C"

// The multiplexed (_mx) and multi-mode (_mm) forms: the same system context, its program
// carrying every set (each set one group per CPU); start, stop, reset and delete are the plain
// calls. A CPU that went offline is not detected here: its sets' counting times show it.
namespace {

int SetSystem(const Status &parsed, Program program) {
  Registry &registry = Registry::Get();
  std::lock_guard<std::mutex> lock(registry.system_calls());
  if (System()) {
    return Report(Pmapi_ProgExists,
                  "the system-wide context is already programmed; pm_delete_program first");
  }
  Status status = parsed;
  if (status.ok()) status = registry.CheckSystemAllowed();
  std::vector<GroupTarget> targets;
  if (status.ok()) status = SystemTargets(program.proctree(), &targets);
  const bool start = program.mode().b.count;
  std::unique_ptr<Context> context;
  if (status.ok()) status = Context::Create(std::move(program), targets, start, &context);
  if (status.ok()) status = registry.AdoptSystem(std::move(context));
  if (status.ok()) {
    g_clock.Clear();
    if (start) g_clock.Started(MonotonicNanos());
  }
  return Report(status);
}

template <typename Get>
int GetSystemProgram(Get get) {
  std::lock_guard<std::mutex> lock(Registry::Get().system_calls());
  if (!System()) return NoProgram(kFamily);
  return get(*System());
}

int ReadSystemMx(int cpu, bool by_cpu, bool dense, pm_data_mx_t *data, timebasestruct_t *time) {
  std::lock_guard<std::mutex> lock(Registry::Get().system_calls());
  if (!System()) return NoProgram(kFamily);
  int group = -1;
  if (by_cpu) {
    Status status = GroupForCpu(cpu, dense, &group);
    if (!status.ok()) return Report(status);
  }
  return ReadContextMx(System(), group, data, time);
}

}  // namespace

extern "C" {

int pm_set_program_mx(pm_prog_mx_t *prog) {
  return Guarded([&] {
    Program program;
    Status status = ProgramFromMx(prog, &program);
    return SetSystem(status, std::move(program));
  });
}

int pm_set_program_mm(pm_prog_mm_t *prog) {
  return Guarded([&] {
    Program program;
    Status status = ProgramFromMm(prog, &program);
    return SetSystem(status, std::move(program));
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
  return Guarded([&] { return ReadSystemMx(0, false, false, data, nullptr); });
}

int pm_get_tdata_mx(pm_data_mx_t *data, timebasestruct_t *time) {
  return Guarded(
      [&] { return time ? ReadSystemMx(0, false, false, data, time) : NullArgument("time"); });
}

int pm_get_data_cpu_mx(int cpuid, pm_data_mx_t *data) {
  return Guarded([&] { return ReadSystemMx(cpuid, true, true, data, nullptr); });
}

int pm_get_tdata_cpu_mx(int cpuid, pm_data_mx_t *data, timebasestruct_t *time) {
  return Guarded(
      [&] { return time ? ReadSystemMx(cpuid, true, true, data, time) : NullArgument("time"); });
}

int pm_get_data_lcpu_mx(int lcpuid, pm_data_mx_t *data) {
  return Guarded([&] { return ReadSystemMx(lcpuid, true, false, data, nullptr); });
}

int pm_get_tdata_lcpu_mx(int lcpuid, pm_data_mx_t *data, timebasestruct_t *time) {
  return Guarded(
      [&] { return time ? ReadSystemMx(lcpuid, true, false, data, time) : NullArgument("time"); });
}

}  // extern "C"
