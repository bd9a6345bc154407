// SPDX-License-Identifier: MIT
// Building a CpuMap: one table per direction, so that every lookup a read makes is an index.
#include "topology/cpu_map.h"

namespace pmapi {

Status CpuMap::Online(const Topology &order, CpuMap *out) {
  Topology online;
  Status status = Topology::LoadOnlineCpusFromSysfs(&online);
  if (!status.ok()) return status;
  std::vector<int> linux_cpus;
  linux_cpus.reserve(online.cpus().size());
  for (const CpuInfo &cpu : online.cpus()) linux_cpus.push_back(cpu.linux_cpu);
  *out = Of(linux_cpus, order);
  return Status::Ok();
}

CpuMap CpuMap::Of(const std::vector<int> &linux_cpus, const Topology &order) {
  CpuMap map;
  map.linux_cpus_ = linux_cpus;
  if (!linux_cpus.empty()) {
    map.group_of_linux_.assign(static_cast<size_t>(linux_cpus.back()) + 1, -1);
  }
  for (size_t group = 0; group < linux_cpus.size(); ++group) {
    map.group_of_linux_[static_cast<size_t>(linux_cpus[group])] = static_cast<int>(group);
  }
  // First the counted CPUs in `order`'s sequence, then the ones it does not know.
  std::vector<bool> numbered(linux_cpus.size(), false);
  for (const CpuInfo &cpu : order.cpus()) {
    const int group = map.GroupOfLinux(cpu.linux_cpu);
    if (group < 0) continue;  // offline now, or not counted
    map.group_of_dense_.push_back(group);
    numbered[static_cast<size_t>(group)] = true;
  }
  for (size_t group = 0; group < linux_cpus.size(); ++group) {
    if (!numbered[group]) map.group_of_dense_.push_back(static_cast<int>(group));
  }
  return map;
}

int CpuMap::GroupOfDense(int dense) const {
  if (dense < 0 || dense >= static_cast<int>(group_of_dense_.size())) return -1;
  return group_of_dense_[static_cast<size_t>(dense)];
}

int CpuMap::GroupOfLinux(int linux_cpu) const {
  if (linux_cpu < 0 || linux_cpu >= static_cast<int>(group_of_linux_.size())) return -1;
  return group_of_linux_[static_cast<size_t>(linux_cpu)];
}

int CpuMap::LinuxOfDense(int dense) const {
  const int group = GroupOfDense(dense);
  return group < 0 ? -1 : linux_cpus_[static_cast<size_t>(group)];
}

}  // namespace pmapi
