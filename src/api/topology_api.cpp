// SPDX-License-Identifier: MIT
// The pmapi_topology.h extension's C entry points: where each dense cpuid sits. The numbering
// and the hwloc snapshot belong to the core (SystemContext) and topology (Topology::Cached).
#include "api/c_boundary.h"
#include "base/last_error.h"
#include "core/system_context.h"

#pragma GCC visibility push(default)
#include "pmapi_topology.h"
#pragma GCC visibility pop

using namespace pmapi;

extern "C" {

int pm_get_cpu_count(int *count) {
  return Guarded([&] {
    if (!count) return Report(Pmapi_InvalidArg, "count is NULL");
    *count = SystemContext::Get().CpuCount();
    return 0;
  });
}

int pm_get_cpu_topology(int cpuid, pm_cpu_topology_t *where) {
  return Guarded([&] {
    if (!where) return Report(Pmapi_InvalidArg, "where is NULL");
    CpuInfo place;
    const int rc = Report(SystemContext::Get().Place(cpuid, &place));
    if (rc != 0) return rc;
    where->cpuid = cpuid;
    where->lcpu = place.linux_cpu;
    where->core = place.core;
    where->package = place.package;
    where->numa_node = place.numa_node;
    return 0;
  });
}

}  // extern "C"
