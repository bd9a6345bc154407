/* SPDX-License-Identifier: MIT */
// pm_get_data_cpu's dense index of a Linux CPU, asked of the library (pmapi_topology.h): tests
// never assume the dense order is the Linux order, since it is hwloc's logical order.
#pragma once

#include "pmapi.h"
#include "pmapi_topology.h"

namespace pmapi_test {

// The dense index of Linux CPU `lcpu`, or -1 when the library numbers no such CPU.
inline int DenseIndexOf(int lcpu) {
  int count = 0;
  if (pm_get_cpu_count(&count) != 0) return -1;
  for (int cpuid = 0; cpuid < count; ++cpuid) {
    pm_cpu_topology_t where;
    if (pm_get_cpu_topology(cpuid, &where) == 0 && where.lcpu == lcpu) return cpuid;
  }
  return -1;
}

}  // namespace pmapi_test
