/* SPDX-License-Identifier: MIT */
// The processors, numbered two ways: the dense index 0..n-1 over the online CPUs that
// pm_get_data_cpu takes, in hwloc's logical PU order (hardware threads of a core side by side,
// then the cores of a package), and the Linux CPU number (hwloc's PU os_index) that
// pm_get_data_lcpu and perf_event_open take. Each CPU also knows its core, package and NUMA
// node, for per-core and per-socket totals and the pmapi_topology.h extension.
#pragma once

#include <string>
#include <vector>

#include "base/status.h"

namespace pmapi {

struct CpuInfo {
  int linux_cpu = -1;  // perf_event_open's cpu argument
  int core = -1;       // hwloc logical index of the core, -1 if unknown
  int package = -1;    // hwloc logical index of the package (socket), -1 if unknown
  int numa_node = -1;  // Linux NUMA node number (hwloc os_index), -1 if unknown
};

class Topology {
 public:
  // A fresh snapshot of the online CPUs from hwloc, in its logical PU order. Loads only
  // packages, cores, PUs and NUMA nodes, and includes CPUs outside this process's cgroup
  // cpuset, since system-wide counting is about the machine (docs/topology.md).
  static Status Load(Topology *out);
  // The same from an hwloc XML file (as `lstopo --of xml` writes one): synthetic machines for
  // tests. HWLOC_XMLFILE in the environment does the same for Load and Cached().
  static Status LoadFromXml(const std::string &path, Topology *out);

  // The cheap path: the online CPUs from /sys/devices/system/cpu/online (read through
  // CurrentKernel()), ascending, without core, package or node.
  static Status LoadOnlineCpusFromSysfs(Topology *out);

  // The snapshot taken on first call (an hwloc load: milliseconds, so only where a caller
  // needs the machine's shape, never on a read path), kept for the process. If hwloc fails it
  // falls back to LoadOnlineCpusFromSysfs; if that fails too it is empty.
  static const Topology &Cached();

  // What Cached() stores, with the preferred loader as a parameter so that
  // tests can make it fail: `load`, else the sysfs list, else empty.
  static Topology LoadWithFallback(Status (*load)(Topology *out) = &Load);

  // In dense order: cpus()[i] is dense index i.
  const std::vector<CpuInfo> &cpus() const { return cpus_; }
  int size() const { return static_cast<int>(cpus_.size()); }
  // Dense index of a Linux CPU, or -1 if it is not online in this snapshot.
  int DenseIndexOf(int linux_cpu) const;

  // A snapshot from a list already in dense order. Negative numbers and repeats of a number
  // (after its first) are dropped.
  static Topology FromCpus(std::vector<CpuInfo> cpus);

 private:
  std::vector<CpuInfo> cpus_;
  std::vector<int> dense_by_linux_;  // indexed by Linux CPU number, -1 if absent
};

}  // namespace pmapi
