// SPDX-License-Identifier: MIT
// Topology::Load: one filtered hwloc load. hwloc reads thousands of sysfs
// files on big machines, so it is asked for packages, cores and PUs (and the
// NUMA nodes it always keeps) only.
#include <hwloc.h>

#include <cerrno>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "pmapi.h"
#include "topology/topology.h"

#if HWLOC_API_VERSION < 0x00020100
#error "libpmapi needs hwloc >= 2.1 (HWLOC_TOPOLOGY_FLAG_INCLUDE_DISALLOWED)"
#endif

namespace pmapi {
namespace {

struct TopologyDeleter {
  void operator()(hwloc_topology *topology) const { hwloc_topology_destroy(topology); }
};
using TopologyHandle = std::unique_ptr<hwloc_topology, TopologyDeleter>;

Status HwlocFailure(const std::string &step) {
  return Status(Pmapi_KernelError, "hwloc " + step + " failed: " + std::strerror(errno));
}

unsigned long LoadFlags() {
  // System-wide counting is about the machine, not this process's cgroup
  // cpuset: list every online CPU, allowed to us or not.
  unsigned long flags = HWLOC_TOPOLOGY_FLAG_INCLUDE_DISALLOWED;
#if HWLOC_API_VERSION >= 0x00020800
  // Distances, memory attributes and CPU kinds cost sysfs reads we never use.
  flags |= HWLOC_TOPOLOGY_FLAG_NO_DISTANCES | HWLOC_TOPOLOGY_FLAG_NO_MEMATTRS |
           HWLOC_TOPOLOGY_FLAG_NO_CPUKINDS;
#endif
  return flags;
}

Status ConfigureWhatToLoad(hwloc_topology_t topology) {
  // PUs (and NUMA nodes) cannot be filtered out; everything else goes except
  // the two levels we aggregate by.
  if (hwloc_topology_set_all_types_filter(topology, HWLOC_TYPE_FILTER_KEEP_NONE) != 0 ||
      hwloc_topology_set_type_filter(topology, HWLOC_OBJ_PACKAGE, HWLOC_TYPE_FILTER_KEEP_ALL) !=
          0 ||
      hwloc_topology_set_type_filter(topology, HWLOC_OBJ_CORE, HWLOC_TYPE_FILTER_KEEP_ALL) != 0) {
    return HwlocFailure("type filter");
  }
  if (hwloc_topology_set_flags(topology, LoadFlags()) != 0) return HwlocFailure("set_flags");
  return Status::Ok();
}

int LogicalIndexOfAncestor(hwloc_topology_t topology, hwloc_obj_t pu, hwloc_obj_type_t type) {
  hwloc_obj_t ancestor = hwloc_get_ancestor_obj_by_type(topology, type, pu);
  return ancestor ? static_cast<int>(ancestor->logical_index) : -1;
}

// NUMA nodes hang beside the CPU tree (memory children), not above the PUs: the node is the
// first one whose cpuset holds the PU. Machines with several nodes per CPU (HBM beside DDR)
// list the one hwloc orders first, the CPU's local DDR on the machines we know.
int NumaNodeOf(hwloc_topology_t topology, hwloc_obj_t pu) {
  for (hwloc_obj_t node = hwloc_get_next_obj_by_type(topology, HWLOC_OBJ_NUMANODE, nullptr); node;
       node = hwloc_get_next_obj_by_type(topology, HWLOC_OBJ_NUMANODE, node)) {
    if (node->os_index != HWLOC_UNKNOWN_INDEX && hwloc_bitmap_isset(node->cpuset, pu->os_index)) {
      return static_cast<int>(node->os_index);
    }
  }
  return -1;
}

// Loads from this machine, or from `xml_path` when it is not null.
Status LoadHwloc(const char *xml_path, Topology *out) {
  hwloc_topology_t raw = nullptr;
  if (hwloc_topology_init(&raw) != 0) return HwlocFailure("topology_init");
  TopologyHandle topology(raw);

  Status configured = ConfigureWhatToLoad(raw);
  if (!configured.ok()) return configured;
  if (xml_path && hwloc_topology_set_xml(raw, xml_path) != 0) {
    return HwlocFailure(std::string("set_xml(") + xml_path + ")");
  }
  if (hwloc_topology_load(raw) != 0) return HwlocFailure("topology_load");

  // Offline CPUs are never PU objects, so this lists exactly the online ones; in logical
  // order, which is the dense order.
  int pu_count = hwloc_get_nbobjs_by_type(raw, HWLOC_OBJ_PU);
  if (pu_count <= 0) return Status(Pmapi_KernelError, "hwloc found no processing unit");
  std::vector<CpuInfo> cpus;
  cpus.reserve(static_cast<size_t>(pu_count));
  for (int i = 0; i < pu_count; ++i) {
    hwloc_obj_t pu = hwloc_get_obj_by_type(raw, HWLOC_OBJ_PU, static_cast<unsigned>(i));
    if (pu->os_index == HWLOC_UNKNOWN_INDEX) continue;  // not a CPU perf can name
    CpuInfo cpu;
    cpu.linux_cpu = static_cast<int>(pu->os_index);
    cpu.core = LogicalIndexOfAncestor(raw, pu, HWLOC_OBJ_CORE);
    cpu.package = LogicalIndexOfAncestor(raw, pu, HWLOC_OBJ_PACKAGE);
    cpu.numa_node = NumaNodeOf(raw, pu);
    cpus.push_back(cpu);
  }
  *out = Topology::FromCpus(std::move(cpus));
  return Status::Ok();
}

}  // namespace

Status Topology::Load(Topology *out) { return LoadHwloc(nullptr, out); }

Status Topology::LoadFromXml(const std::string &path, Topology *out) {
  return LoadHwloc(path.c_str(), out);
}

}  // namespace pmapi
