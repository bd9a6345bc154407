// SPDX-License-Identifier: MIT
#include "event_selection.h"

#include <pmapi_select.h>

#include <set>

#include "event_list.h"

namespace tools {
namespace {

using pmapi::GroupCatalog;
using pmapi::ResolvedGroup;

// The metrics of the chosen group; or, for a list of events, of every group whose members
// are all counted (so task-clock with its companions brings CPUs_utilized, say).
void AddMetrics(Selection *selection) {
  std::vector<const ResolvedGroup *> sources;
  if (selection->group) {
    sources.push_back(selection->group);
  } else {
    for (const ResolvedGroup &group : GroupCatalog::Get().groups()) sources.push_back(&group);
  }
  std::set<std::string> seen;
  for (const ResolvedGroup *group : sources) {
    if (!group->missing_member.empty() || group->record.metrics.empty()) continue;
    std::vector<size_t> indexes;
    for (const pmapi::CatalogEvent *member : group->members) {
      size_t index = 0;
      while (index < selection->events.size() && selection->events[index].entry != member) ++index;
      if (index == selection->events.size()) break;
      indexes.push_back(index);
    }
    if (indexes.size() != group->members.size()) continue;
    for (const pmapi::GroupMetric &metric : group->record.metrics) {
      if (!seen.insert(metric.name).second) continue;  // the first group to define it wins
      MetricDef def;
      def.name = metric.name;
      def.group = group->record.short_name;
      def.formula = &metric.compiled;
      def.events = indexes;
      selection->metrics.push_back(def);
    }
  }
}

SelectedEvent SelectedOf(const pm_selected_event_t &one) {
  SelectedEvent event;
  event.name = one.name;
  event.entry = pmapi::Catalog::Get().FindId(one.event_id);
  event.has_mode = one.has_mode;
  event.user = one.user;
  event.kernel = one.kernel;
  event.not_countable = one.not_countable;
  return event;
}

// A list too long for one program, or naming an event twice, for a session: each event
// selected alone, as the library selects one. Returns "" or the refusal.
std::string SelectOneByOne(const std::string &spec, Selection *out) {
  std::vector<pm_event_spec_t> specs;
  std::string error = SplitEventList(spec, &specs);
  if (!error.empty()) return error;
  for (const pm_event_spec_t &one : specs) {
    pm_selection_t chosen;
    if (pm_select_events(one.text, 0, &chosen) != 0) return chosen.why;
    if (chosen.group_id >= 0) {
      return "'" + std::string(one.text) + "' is a group, and a group cannot be combined with " +
             "other events; name the group alone (-g " + one.name + ") or list its events";
    }
    for (int e = 0; e < chosen.nevents; ++e) out->events.push_back(SelectedOf(chosen.events[e]));
  }
  return "";
}

}  // namespace

std::string SelectEvents(const Options &options, Selection *selection, bool any_number) {
  std::string spec;
  for (const std::string &list : options.event_lists) spec += (spec.empty() ? "" : ",") + list;
  if (!options.event_lists.empty() && spec.empty()) {
    return "an empty event name (two commas, or a comma at an end?)";
  }
  const bool group = !options.group.empty();
  pm_selection_t chosen;
  Selection out;
  if (pm_select_events(group ? options.group.c_str() : spec.c_str(),
                       group ? PM_SELECT_GROUP : PM_SELECT_WIDE_DEFAULT, &chosen) != 0) {
    const bool session_list =
        any_number && !group &&
        (chosen.refusal == PM_SELECT_TOO_MANY || chosen.refusal == PM_SELECT_REPEATED);
    if (!session_list) return chosen.why;
    const std::string error = SelectOneByOne(spec, &out);
    if (!error.empty()) return error;
    chosen.nevents = 0;
    chosen.group_id = -1;
    chosen.note[0] = 0;
  }
  for (int e = 0; e < chosen.nevents; ++e) out.events.push_back(SelectedOf(chosen.events[e]));
  if (chosen.group_id >= 0) out.group = GroupCatalog::Get().FindId(chosen.group_id);
  if (chosen.note[0]) out.notes.push_back(std::string(chosen.note) + "; -e or -g choose others");
  if (GroupCatalog::Get().load_status().ok()) AddMetrics(&out);
  if (!options.metric_names.empty()) {
    std::vector<MetricDef> kept;
    for (const MetricDef &metric : out.metrics) {
      for (const std::string &name : options.metric_names) {
        if (metric.name == name) kept.push_back(metric);
      }
    }
    out.metrics = std::move(kept);
  }
  *selection = std::move(out);
  return "";
}

}  // namespace tools
