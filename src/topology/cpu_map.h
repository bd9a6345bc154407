/* SPDX-License-Identifier: MIT */
// The CPUs one system-wide program counts, as a value: the kernel's online list, read once when
// the program is set, and the numbering pm_get_data_cpu gives them (hwloc's logical order).
// Counting opens one group per CPU in ascending Linux number; only the numbering differs.
#pragma once

#include <vector>

#include "base/engine_export.h"
#include "base/status.h"
#include "topology/topology.h"

namespace pmapi {

class CpuMap {
 public:
  // The CPUs online now (/sys/devices/system/cpu/online, through the kernel seam), numbered
  // as `order` numbers them.
  PMAPI_ENGINE_EXPORT static Status Online(const Topology &order, CpuMap *out);
  // `linux_cpus` (ascending, no repeats), numbered in `order`'s dense order; a CPU `order`
  // does not know (one that came online after it was taken) comes after those it knows,
  // ascending.
  static CpuMap Of(const std::vector<int> &linux_cpus, const Topology &order);

  int size() const { return static_cast<int>(linux_cpus_.size()); }
  // Ascending Linux numbers: group i counts linux_cpus()[i].
  const std::vector<int> &linux_cpus() const { return linux_cpus_; }
  // The group counting dense index `dense`, or -1 when out of range.
  int GroupOfDense(int dense) const;
  // The group counting Linux CPU `linux_cpu`, or -1 when it is not counted.
  int GroupOfLinux(int linux_cpu) const;
  // The Linux CPU of dense index `dense`, or -1 when out of range.
  int LinuxOfDense(int dense) const;

 private:
  std::vector<int> linux_cpus_;      // by group
  std::vector<int> group_of_dense_;  // by dense index
  std::vector<int> group_of_linux_;  // by Linux number, -1 if not counted
};

}  // namespace pmapi
