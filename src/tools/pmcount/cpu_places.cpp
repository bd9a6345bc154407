// SPDX-License-Identifier: MIT
#include "cpu_places.h"

#include <pmapi.h>
#include <pmapi_topology.h>

#include <map>

namespace pmcount {

std::vector<CpuPlace> PlacesOf(const std::vector<int> &linux_cpus, bool with_topology) {
  std::map<int, pm_cpu_topology_t> by_linux_cpu;
  int count = 0;
  if (with_topology && pm_get_cpu_count(&count) == 0) {
    for (int cpuid = 0; cpuid < count; ++cpuid) {
      pm_cpu_topology_t where;
      if (pm_get_cpu_topology(cpuid, &where) == 0) by_linux_cpu[where.lcpu] = where;
    }
  }
  std::vector<CpuPlace> places;
  places.reserve(linux_cpus.size());
  for (int cpu : linux_cpus) {
    CpuPlace place;
    place.linux_cpu = cpu;
    auto found = by_linux_cpu.find(cpu);
    if (found != by_linux_cpu.end()) {
      place.core = found->second.core;
      place.package = found->second.package;
    }
    places.push_back(place);
  }
  return places;
}

}  // namespace pmcount
