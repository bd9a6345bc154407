// SPDX-License-Identifier: MIT
// System-wide counting: setting, starting, stopping and reading the context that counts CPUs,
// and telling a CPU the kernel stopped counting (hotplug) from one that counts.
#include "core/system_context.h"

#include <unistd.h>

#include <string>

#include "base/clock.h"
#include "pmapi.h"

namespace pmapi {
namespace {

Context *Current() { return Registry::Get().system_context(); }

// Counters enabled this much less than the wall clock says are off: 1 ms, plus 0.1% for the
// kernel's per-CPU clock running at a slightly different rate from CLOCK_MONOTONIC.
bool LagsBehind(uint64_t enabled, uint64_t expected) {
  return enabled + 1000000 + expected / 1000 < expected;
}

Status CpuStopped(int linux_cpu, uint64_t enabled, uint64_t expected) {
  // A fresh look at the online list: the message says whether the CPU is still away.
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

std::vector<GroupTarget> CpuTargets(const CpuMap &cpus) {
  std::vector<GroupTarget> targets;
  targets.reserve(cpus.linux_cpus().size());
  for (int cpu : cpus.linux_cpus()) {
    GroupTarget target;
    target.cpu = cpu;
    target.description = "CPU " + std::to_string(cpu);
    targets.push_back(target);
  }
  return targets;
}

}  // namespace

SystemContext &SystemContext::Get() {
  // Never destroyed, like the registry: a thread may still call in during exit.
  static SystemContext *const instance = new SystemContext();
  return *instance;
}

Status SystemContext::NoProgram() {
  return Status(Pmapi_NoSetProg, "no system-wide program is set");
}

Status SystemContext::Set(const Status &parsed, Program program,
                          const std::vector<GroupTarget> &threads) {
  Registry &registry = Registry::Get();
  std::lock_guard<std::mutex> lock(registry.system_calls());
  if (Current()) {
    return Status(Pmapi_ProgExists,
                  "the system-wide context is already programmed; pm_delete_program first");
  }
  Status status = parsed;
  if (status.ok()) status = registry.CheckSystemAllowed();
  const bool proctree = program.proctree();
  CpuMap cpus;
  // The kernel's online list, read at every set (a CPU may have come or gone since the last
  // one). hwloc numbers them when a dense index is first asked for.
  if (status.ok() && !proctree) status = CpuMap::Online(Topology(), &cpus);
  const bool start = program.mode().b.count;
  std::unique_ptr<Context> context;
  if (status.ok()) {
    status =
        Context::Create(std::move(program), proctree ? threads : CpuTargets(cpus), start, &context);
  }
  if (status.ok()) status = registry.AdoptSystem(std::move(context));
  if (!status.ok()) return status;
  cpus_ = std::move(cpus);
  numbered_ = false;
  clock_.Clear();
  if (start) clock_.Started(MonotonicNanos());
  return Status::Ok();
}

Status SystemContext::Delete() {
  Registry &registry = Registry::Get();
  std::lock_guard<std::mutex> lock(registry.system_calls());
  if (!Current()) return NoProgram();
  registry.DropSystem();
  cpus_ = CpuMap();
  return Status::Ok();
}

Status SystemContext::Start() {
  std::lock_guard<std::mutex> lock(Registry::Get().system_calls());
  if (!Current()) return NoProgram();
  Status status = Current()->Start();
  if (status.ok()) clock_.Started(MonotonicNanos());
  return status;
}

Status SystemContext::Stop() {
  std::lock_guard<std::mutex> lock(Registry::Get().system_calls());
  if (!Current()) return NoProgram();
  const uint64_t before = MonotonicNanos();
  Status status = Current()->Stop();
  if (!Current()->counting()) clock_.Stopped(before);
  return status;
}

Status SystemContext::Reset() {
  std::lock_guard<std::mutex> lock(Registry::Get().system_calls());
  if (!Current()) return NoProgram();
  Status status = Current()->Reset();
  if (status.ok()) clock_.Reset(MonotonicNanos());
  return status;
}

SystemRead SystemContext::ReadAll(CounterValues *values) {
  std::lock_guard<std::mutex> lock(Registry::Get().system_calls());
  SystemRead result;
  if (!Current()) {
    result.status = NoProgram();
  } else if (!values) {
    result.status = Status(Pmapi_InvalidArg, "data is NULL");
  } else {
    result.status = Current()->Read(-1, values, &result.times);
    result.read = true;
  }
  return result;
}

SystemRead SystemContext::ReadCpu(int cpu, CpuNumbering numbering, CounterValues *values) {
  std::lock_guard<std::mutex> lock(Registry::Get().system_calls());
  SystemRead result;
  if (!Current()) {
    result.status = NoProgram();
    return result;
  }
  int group = 0;
  result.status = GroupForCpu(cpu, numbering, &group);
  if (!result.status.ok()) return result;
  if (!values) {
    result.status = Status(Pmapi_InvalidArg, "data is NULL");
    return result;
  }
  // Taken before the read, so that a CPU that counts all along never looks behind.
  const uint64_t expected = clock_.At(MonotonicNanos());
  result.status = Current()->Read(group, values, &result.times);
  result.read = true;
  if (!result.status.ok() && result.status.code() != Pmapi_Multiplexed) return result;
  if (LagsBehind(result.times.enabled, expected)) {
    result.status = CpuStopped(Current()->targets()[static_cast<size_t>(group)].cpu,
                               result.times.enabled, expected);
  }
  return result;
}

const CpuMap &SystemContext::NumberedCpus() {
  if (!numbered_) {
    cpus_ = CpuMap::Of(cpus_.linux_cpus(), Topology::Cached());
    numbered_ = true;
  }
  return cpus_;
}

Status SystemContext::GroupForCpu(int cpu, CpuNumbering numbering, int *group) {
  if (Current()->program().proctree()) {
    return Status(Pmapi_NotSystemWide,
                  "the system-wide program counts a process tree (proctree), not CPUs");
  }
  if (numbering == CpuNumbering::kDense) {
    *group = NumberedCpus().GroupOfDense(cpu);
    if (*group >= 0) return Status::Ok();
    return Status(Pmapi_InvalidCpu, "cpuid " + std::to_string(cpu) + " is not in 0.." +
                                        std::to_string(cpus_.size() - 1) +
                                        " (the CPUs online at set time)");
  }
  *group = cpus_.GroupOfLinux(cpu);
  if (*group >= 0) return Status::Ok();
  const long configured = sysconf(_SC_NPROCESSORS_CONF);
  if (cpu < 0 || cpu >= configured) {
    return Status(Pmapi_InvalidCpu, "lcpuid " + std::to_string(cpu) +
                                        " is not a CPU of this machine (0.." +
                                        std::to_string(configured - 1) + ")");
  }
  return Status(Pmapi_CpuNotCounted, "CPU " + std::to_string(cpu) +
                                         " was offline at pm_set_program, so it was not counted");
}

int SystemContext::CpuCount() {
  std::lock_guard<std::mutex> lock(Registry::Get().system_calls());
  const Context *context = Current();
  if (context && !context->program().proctree()) return cpus_.size();
  return Topology::Cached().size();
}

Status SystemContext::Place(int dense, CpuInfo *place) {
  std::lock_guard<std::mutex> lock(Registry::Get().system_calls());
  const Topology &machine = Topology::Cached();
  const Context *context = Current();
  const bool program_numbers = context && !context->program().proctree();
  const int count = program_numbers ? cpus_.size() : machine.size();
  if (dense < 0 || dense >= count) {
    return Status(Pmapi_InvalidCpu,
                  "cpuid " + std::to_string(dense) + " is not in 0.." + std::to_string(count - 1));
  }
  const int linux_cpu = program_numbers ? NumberedCpus().LinuxOfDense(dense)
                                        : machine.cpus()[static_cast<size_t>(dense)].linux_cpu;
  const int known = machine.DenseIndexOf(linux_cpu);
  if (known >= 0) {
    *place = machine.cpus()[static_cast<size_t>(known)];
  } else {
    *place = CpuInfo();  // came online after hwloc looked: its place is unknown
    place->linux_cpu = linux_cpu;
  }
  return Status::Ok();
}

}  // namespace pmapi
