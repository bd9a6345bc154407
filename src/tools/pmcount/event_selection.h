// Which events to count: -e names looked up in the catalog (with "did you mean" for typos),
// a -g group, or the default set for this machine; and the derived metrics that come with
// them from the group definitions.
#pragma once

#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "catalog/group_catalog.h"
#include "event_spec.h"
#include "options.h"

namespace pmcount {

struct SelectedEvent {
  std::string name;                            // as printed
  const pmapi::CatalogEvent *entry = nullptr;  // the catalog's event
  bool has_mode = false;                       // the spec's own :u/:k
  bool user = false, kernel = false;
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

// Needs pm_initialize done. A name the catalog lacks (a libpfm4 string with attributes, a
// tracepoint made since it was built) is added to it (pm_catalog_add_event). Returns "" or the
// error to print as a usage error.
std::string SelectEvents(const Options &options, const std::vector<EventSpec> &specs,
                         Selection *selection);

// Whether `entry` can be programmed here, and if not why, in a few words ("no hardware PMU
// for it"), from the status and the catalog's description.
bool Countable(const pmapi::CatalogEvent &entry, std::string *reason);

}  // namespace pmcount
