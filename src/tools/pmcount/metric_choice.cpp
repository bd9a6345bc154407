// SPDX-License-Identifier: MIT
#include "metric_choice.h"

#include <pmapi_catalog.h>

#include <vector>

#include "catalog/group_catalog.h"
#include "text_format.h"

namespace pmcount {
namespace {

using pmapi::GroupCatalog;
using pmapi::ResolvedGroup;

bool Countable(const ResolvedGroup &group) { return group.id >= 0 && group.missing_member.empty(); }

// The group `name` names, or the first that defines a metric `name`; `metric` says which.
const ResolvedGroup *FindFor(const std::string &name, bool *metric) {
  const GroupCatalog &catalog = GroupCatalog::Get();
  const ResolvedGroup *group = catalog.FindName(name);
  if (group && Countable(*group)) {
    *metric = false;
    return group;
  }
  const ResolvedGroup *first = nullptr;
  for (const ResolvedGroup &candidate : catalog.groups()) {
    if (!Countable(candidate)) continue;
    for (const pmapi::GroupMetric &defined : candidate.record.metrics) {
      if (defined.name == name && (!first || candidate.id < first->id)) first = &candidate;
    }
  }
  *metric = true;
  return first;
}

std::string Unknown(const std::string &name) {
  pm_catalog_suggestions_t close{};
  std::vector<std::string> names;
  if (pm_catalog_suggest(name.c_str(), PM_CATALOG_GROUPS, &close) == 0) {
    names.assign(close.suggestions, close.suggestions + close.nsuggestions);
  }
  return "-M " + name + ": no metric or group of that name can be counted here" +
         (names.empty() ? "" : "; did you mean " + tools::OrList(names) + "?") +
         " (pmlist -g lists the groups and their metrics)";
}

}  // namespace

std::string ChooseMetrics(Options *options) {
  if (options->metrics.empty()) return "";
  if (!GroupCatalog::Get().load_status().ok()) {
    return "-M needs the group tables, which failed to load: " +
           GroupCatalog::Get().load_status().detail();
  }
  const ResolvedGroup *chosen = nullptr;
  std::string chosen_by;
  bool whole_group = false;
  std::vector<std::string> metrics;
  for (const std::string &name : options->metrics) {
    bool is_metric = false;
    const ResolvedGroup *group = FindFor(name, &is_metric);
    if (!group) return Unknown(name);
    if (chosen && group != chosen) {
      return "-M " + chosen_by + " and " + name + " are metrics of different groups (" +
             chosen->record.short_name + ", " + group->record.short_name +
             "), and pmcount counts one group at a time: give one -M per run";
    }
    chosen = group;
    if (chosen_by.empty()) chosen_by = name;
    if (is_metric) {
      metrics.push_back(name);
    } else {
      whole_group = true;
    }
  }
  options->group = chosen->record.short_name;
  if (!whole_group) options->metric_names = metrics;
  return "";
}

}  // namespace pmcount
