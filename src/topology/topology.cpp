// The snapshot itself: building the dense/Linux tables and the per-process
// cache. How a snapshot is discovered lives in topology_hwloc.cpp and
// topology_sysfs.cpp.
#include "topology/topology.h"

#include <algorithm>

namespace pmapi {

Topology Topology::FromCpus(std::vector<CpuInfo> cpus) {
  cpus.erase(std::remove_if(cpus.begin(), cpus.end(),
                            [](const CpuInfo &cpu) { return cpu.linux_cpu < 0; }),
             cpus.end());
  std::sort(cpus.begin(), cpus.end(),
            [](const CpuInfo &a, const CpuInfo &b) { return a.linux_cpu < b.linux_cpu; });
  cpus.erase(
      std::unique(cpus.begin(), cpus.end(),
                  [](const CpuInfo &a, const CpuInfo &b) { return a.linux_cpu == b.linux_cpu; }),
      cpus.end());

  Topology topology;
  topology.cpus_ = std::move(cpus);
  if (!topology.cpus_.empty()) {
    // A table as long as the highest CPU number: Linux numbers are small
    // (below NR_CPUS), and _lcpu lookups happen on every per-CPU read.
    topology.dense_by_linux_.assign(topology.cpus_.back().linux_cpu + 1, -1);
    for (int dense = 0; dense < topology.size(); ++dense) {
      topology.dense_by_linux_[topology.cpus_[dense].linux_cpu] = dense;
    }
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
