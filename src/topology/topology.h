// The processors, numbered two ways: the dense index 0..n-1 over the online
// CPUs that pm_get_data_cpu takes, and the Linux CPU number (hwloc's PU
// os_index) that pm_get_data_lcpu and perf_event_open take. Each online CPU
// also knows its core and package, for per-core and per-socket totals.
#pragma once

#include <vector>

#include "core/status.h"

namespace pmapi {

struct CpuInfo {
  int linux_cpu = -1;  // perf_event_open's cpu argument
  int core = -1;       // hwloc logical index of the core, -1 if unknown
  int package = -1;    // hwloc logical index of the package (socket), -1 if unknown
};

class Topology {
 public:
  // A fresh snapshot of the online CPUs, ascending by Linux number. Loads only
  // packages, cores and PUs, and includes CPUs outside this process's cgroup
  // cpuset, since system-wide counting is about the machine (docs/topology.md).
  static Status Load(Topology *out);

  // The cheap path: the online CPUs from /sys/devices/system/cpu/online (read
  // through CurrentKernel()), without core or package. Lets the counting core
  // re-check which CPUs are online at pm_set_program time without an hwloc load.
  static Status LoadOnlineCpusFromSysfs(Topology *out);

  // The snapshot taken on first call, kept for the process. If hwloc fails it
  // falls back to LoadOnlineCpusFromSysfs; if that fails too it is empty.
  static const Topology &Cached();

  // What Cached() stores, with the preferred loader as a parameter so that
  // tests can make it fail: `load`, else the sysfs list, else empty.
  static Topology LoadWithFallback(Status (*load)(Topology *out) = &Load);

  const std::vector<CpuInfo> &cpus() const { return cpus_; }
  int size() const { return static_cast<int>(cpus_.size()); }
  // Dense index of a Linux CPU, or -1 if it is not online in this snapshot.
  int DenseIndexOf(int linux_cpu) const;

  // For tests and hotplug handling: a snapshot built from a list, in any
  // order. Sorted by Linux number; duplicates and negative numbers dropped.
  static Topology FromCpus(std::vector<CpuInfo> cpus);

 private:
  std::vector<CpuInfo> cpus_;
  std::vector<int> dense_by_linux_;  // indexed by Linux CPU number, -1 if absent
};

}  // namespace pmapi
