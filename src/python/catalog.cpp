// SPDX-License-Identifier: MIT
#include "catalog.h"

#include "errors.h"
#include "library.h"

#include <pmapi_catalog.h>
#include <pmapi_metrics.h>
#include <pmapi_topology.h>

#include <string>
#include <vector>

namespace py = pybind11;

namespace pmapi_python {
namespace {

const char *Text(const char *text) { return text ? text : ""; }

// (id, name, long name, description, countable, why not)
py::list Events(const std::string &query) {
  EnsureInitialized();
  int n = 0;
  Check(pm_catalog_match(query.c_str(), nullptr, 0, &n), "pm_catalog_match");
  std::vector<pm_catalog_match_t> matches(static_cast<size_t>(n));
  Check(pm_catalog_match(query.c_str(), matches.data(), n, &n), "pm_catalog_match");
  py::list events;
  for (int i = 0; i < n && i < int(matches.size()); ++i) {
    const pm_catalog_match_t &m = matches[size_t(i)];
    const pm_events2_t *listed = EventById(m.event_id);
    events.append(py::make_tuple(m.event_id, m.name, listed ? Text(listed->long_name) : "",
                                 listed ? Text(listed->description) : "", m.countable != 0,
                                 m.not_countable));
  }
  return events;
}

// (id, name, long name, description, [member names], [(metric, formula, unit)])
py::list GroupList(const std::string &query) {
  EnsureInitialized();
  const pm_groups_info_t &groups = pmapi_python::Groups();
  py::list found;
  for (int g = 0; g < groups.maxgroups; ++g) {
    const pm_groups_t &group = groups.event_groups[g];
    if (!pm_catalog_query_matches(query.c_str(), group.short_name, group.long_name,
                                  group.description))
      continue;
    pm_group_metrics_t m{};
    py::list members, metrics;
    if (pm_get_group_metrics(group.group_id, &m) == 0) {
      for (int i = 0; i < m.members && i < MAX_COUNTERS; ++i) {
        const pm_events2_t *event = EventById(group.events[i]);
        members.append(event ? Text(event->short_name) : std::to_string(group.events[i]));
      }
      for (int i = 0; i < m.maxmetrics; ++i)
        metrics.append(py::make_tuple(m.metrics[i].name, m.metrics[i].formula, m.metrics[i].unit));
    }
    found.append(py::make_tuple(group.group_id, Text(group.short_name), Text(group.long_name),
                                Text(group.description), members, metrics));
  }
  return found;
}

// (cpu, Linux CPU, core, package, NUMA node)
py::tuple CpuTopology(int cpu) {
  pm_cpu_topology_t where;
  Check(pm_get_cpu_topology(cpu, &where), "pm_get_cpu_topology");
  return py::make_tuple(where.cpuid, where.lcpu, where.core, where.package, where.numa_node);
}

int CpuCount() {
  int n = 0;
  Check(pm_get_cpu_count(&n), "pm_get_cpu_count");
  return n;
}

}  // namespace

void BindCatalog(py::module_ &module) {
  module.def("_events", &Events, py::arg("query"));
  module.def("_groups", &GroupList, py::arg("query"));
  module.def("_cpu_topology", &CpuTopology, py::arg("cpu"));
  module.def("cpu_count", &CpuCount, "How many CPUs the library numbers (dense ids 0..n-1).");
}

}  // namespace pmapi_python
