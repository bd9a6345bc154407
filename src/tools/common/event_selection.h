/* SPDX-License-Identifier: MIT */
// Which events to count: the -e lists or the -g group, or the default set for this machine,
// as the library's pm_select_events chooses them (include/pmapi_select.h); and the derived
// metrics that come with them from the group definitions.
#pragma once

#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "catalog/group_catalog.h"
#include "count_options.h"

namespace tools {

struct SelectedEvent {
  std::string name;                            // as printed
  const pmapi::CatalogEvent *entry = nullptr;  // the catalog's event
  bool has_mode = false;                       // the spec's own :u/:k
  bool user = false, kernel = false;
  std::string not_countable;  // why the catalog knows it cannot count here, or ""
};

struct MetricDef {
  std::string name;
  std::string group;
  const pmapi::Formula *formula = nullptr;
  std::vector<size_t> events;  // for each member of the group, its index in Selection::events
};

struct Selection {
  std::vector<SelectedEvent> events;
  // Set when a whole group is counted (-g, or the default software group): programmed with
  // mode.b.is_group, the members on counters 0..n-1.
  const pmapi::ResolvedGroup *group = nullptr;
  std::vector<MetricDef> metrics;
  std::vector<std::string> notes;
};

// Needs pm_initialize done. Returns "" or the error to print as a usage error. `any_number`:
// for a counting session, which takes any number of events and the same event twice (with
// other levels: "page-faults:u,page-faults:k"); else at most one program's MAX_COUNTERS.
std::string SelectEvents(const Options &options, Selection *selection, bool any_number = false);

}  // namespace tools
