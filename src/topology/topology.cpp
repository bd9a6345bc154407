// SPDX-License-Identifier: MIT
// The snapshot itself: building the dense/Linux tables and the per-process
// cache. How a snapshot is discovered lives in topology_hwloc.cpp and
// topology_sysfs.cpp.
#include "topology/topology.h"

namespace pmapi {

Topology Topology::FromCpus(std::vector<CpuInfo> cpus) {
  Topology topology;
  topology.cpus_.reserve(cpus.size());
  for (const CpuInfo &cpu : cpus) {
    if (cpu.linux_cpu < 0) continue;
    // A table as long as the highest CPU number: Linux numbers are small (below NR_CPUS), and
    // _lcpu lookups happen on every per-CPU read.
    if (cpu.linux_cpu >= static_cast<int>(topology.dense_by_linux_.size())) {
      topology.dense_by_linux_.resize(static_cast<size_t>(cpu.linux_cpu) + 1, -1);
    }
    int &dense = topology.dense_by_linux_[static_cast<size_t>(cpu.linux_cpu)];
    if (dense >= 0) continue;  // a repeat
    dense = topology.size();
    topology.cpus_.push_back(cpu);
  }
  return topology;
}

int Topology::DenseIndexOf(int linux_cpu) const {
  if (linux_cpu < 0 || linux_cpu >= static_cast<int>(dense_by_linux_.size())) return -1;
  return dense_by_linux_[linux_cpu];
}

Topology Topology::LoadWithFallback(Status (*load)(Topology *out)) {
  Topology topology;
  if (load(&topology).ok()) return topology;
  // Without hwloc (a broken sysfs, a seccomp filter...) the CPU numbers alone
  // still allow system-wide counting; only per-core/per-package totals are lost.
  topology = Topology();
  if (LoadOnlineCpusFromSysfs(&topology).ok()) return topology;
  return Topology();
}

const Topology &Topology::Cached() {
  // A function-local static: C++11 guarantees one initialization even when
  // several threads make their first pmapi call at once.
  static const Topology cached = LoadWithFallback();
  return cached;
}

}  // namespace pmapi
