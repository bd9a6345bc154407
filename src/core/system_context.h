/* SPDX-License-Identifier: MIT */
// The system-wide context and the logic of counting CPUs: which CPUs the program counts (read at
// set time) and how pm_get_data_cpu numbers them (hwloc's order, on the first call that needs
// it: hwloc costs milliseconds, once per process), and whether the kernel still
// counts each CPU (it switches a departing CPU's counters off and never back on: hotplug). Each
// call takes the registry's system_calls lock, so calls from several threads are serialized;
// the C entry points (src/api/system.cpp) only validate, translate and call.
#pragma once

#include <mutex>
#include <vector>

#include "base/status.h"
#include "core/context.h"
#include "core/enabled_clock.h"
#include "core/registry.h"
#include "topology/cpu_map.h"
#include "topology/topology.h"

namespace pmapi {

// How a caller names a CPU: pm_get_data_cpu's dense index or pm_get_data_lcpu's Linux number.
enum class CpuNumbering { kDense, kLinux };

// What a read did: `read` says whether the counters were read (then `times` is filled, and the
// data too unless `status` says otherwise).
struct SystemRead {
  Status status;
  bool read = false;
  CountTimes times;
};

class SystemContext {
 public:
  static SystemContext &Get();

  // Programs the system-wide context: Pmapi_ProgExists first, then `parsed` (the client
  // program's own error), then the process rules. A proctree program counts `threads` (the
  // caller lists them); any other counts the CPUs online now, one group per CPU.
  Status Set(const Status &parsed, Program program, const std::vector<GroupTarget> &threads);
  Status Delete();
  Status Start();
  Status Stop();
  Status Reset();

  // Sums every group into `values` (null: the client's data was NULL, an error after the
  // program's own).
  SystemRead ReadAll(CounterValues *values);
  // One CPU's counts; Pmapi_CpuNotCounted when the kernel stopped counting it since set.
  SystemRead ReadCpu(int cpu, CpuNumbering numbering, CounterValues *values);

  // Runs body(Context *) under the lock, with null when no program is set: for the calls that
  // only translate the context (get_program, the _mx reads).
  template <typename Body>
  auto Locked(Body body) {
    std::lock_guard<std::mutex> lock(Registry::Get().system_calls());
    return body(Registry::Get().system_context());
  }
  // The group counting a CPU (call inside Locked, with a context set).
  Status GroupForCpu(int cpu, CpuNumbering numbering, int *group);

  // The pmapi_topology.h extension: how many CPUs pm_get_data_cpu numbers, and where dense
  // index `dense` sits. While a CPU-counting program is set, its numbering; otherwise the
  // machine's as hwloc saw it on first use.
  int CpuCount();
  Status Place(int dense, CpuInfo *place);

  // The "no program" failure of this family.
  static Status NoProgram();

 private:
  SystemContext() = default;
  // The program's CPUs, numbered in hwloc's order from the first call that asks on.
  const CpuMap &NumberedCpus();

  CpuMap cpus_;            // the CPUs of the program (empty for proctree)
  bool numbered_ = false;  // whether cpus_ has hwloc's numbering yet
  EnabledClock clock_;     // the program's counting time by the wall clock
};

}  // namespace pmapi
