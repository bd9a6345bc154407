// SPDX-License-Identifier: MIT
// Building and caching the per-filter group lists, and the is_group lookup.
#include "catalog/event_groups.h"

#include <stdio.h>

#include <algorithm>
#include <mutex>
#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "catalog/group_catalog.h"
#include "catalog/tables.h"

namespace pmapi {
namespace {

bool Listed(const ResolvedGroup &group, int status_filter) {
  if (group.id < 0) return false;
  for (const CatalogEvent *member : group.members) {
    if (!PassesFilter(member->status, status_filter)) return false;
  }
  return true;
}

char *Text(const std::string &text) { return const_cast<char *>(text.c_str()); }

// The entry of an id no group has (between the dense ids and a pinned one): it keeps
// event_groups[group_id] indexable, names the filler on every counter so that clients looking
// each events[counter] up in the lists find a real entry, and says it is no group: an empty
// short name, which no group has. Programming it is refused as an unknown id.
void FillGap(int id, const int *filler_events, pm_groups_t *entry) {
  static const std::string kNone = "", kLongName = "no group",
                           kDescription =
                               "No group has this id; the entry only keeps event_groups[id] "
                               "indexable up to an id a site table pinned (docs/catalog.md).";
  entry->group_id = id;
  entry->events = const_cast<int *>(filler_events);
  entry->short_name = Text(kNone);
  entry->long_name = Text(kLongName);
  entry->description = Text(kDescription);
}

EventGroupList Make(int status_filter) {
  const GroupCatalog &catalog = GroupCatalog::Get();
  std::vector<const ResolvedGroup *> listed;
  // Under the full filter every listable group is listed and entry k is id k, gaps included
  // (nullptr here); a narrower filter lists the subset, by increasing id, without gaps.
  if (status_filter == kStatusFilterMask) {
    for (size_t id = 0; id < catalog.id_limit(); ++id) {
      listed.push_back(catalog.FindId(static_cast<int>(id)));
    }
  } else {
    std::vector<std::pair<int, const ResolvedGroup *>> by_id;
    for (const ResolvedGroup &group : catalog.groups()) {
      if (Listed(group, status_filter)) by_id.emplace_back(group.id, &group);
    }
    std::sort(by_id.begin(), by_id.end());  // pinned groups may come before unpinned ones
    for (const auto &entry : by_id) listed.push_back(entry.second);
  }
  EventGroupList list;
  list.count = static_cast<int>(listed.size());
  if (listed.empty()) return list;  // maxgroups 0, no array
  list.groups = new pm_groups_t[listed.size()]();
  const int *gap_events = nullptr;  // one array for every gap
  for (size_t i = 0; i < listed.size(); ++i) {
    if (!listed[i]) {
      if (!gap_events) {
        const CatalogEvent *filler = catalog.filler();
        int *events = new int[MAX_COUNTERS];
        for (int counter = 0; counter < MAX_COUNTERS; ++counter) {
          events[counter] = filler ? filler->id : 0;
        }
        gap_events = events;
      }
      FillGap(static_cast<int>(i), gap_events, &list.groups[i]);
      continue;
    }
    const ResolvedGroup &group = *listed[i];
    // PAPI and others read MAX_COUNTERS entries whatever the group's size, and look each up in
    // the lists: free counters name the filler event, never COUNT_NOTHING.
    int *events = new int[MAX_COUNTERS];
    const int filler = catalog.FillerFor(group)->id;
    for (int counter = 0; counter < MAX_COUNTERS; ++counter) {
      size_t member = static_cast<size_t>(counter);
      events[counter] = member < group.members.size() ? group.members[member]->id : filler;
    }
    list.groups[i].group_id = group.id;
    list.groups[i].events = events;
    list.groups[i].short_name = Text(group.record.short_name);
    list.groups[i].long_name = Text(group.record.long_name);
    list.groups[i].description = Text(group.record.description);
  }
  return list;
}

std::mutex g_mutex;
EventGroupList *g_lists[kStatusFilterMask + 1];

}  // namespace

EventGroupList EventGroupsForFilter(int status_filter) {
  status_filter &= kStatusFilterMask;
  std::lock_guard<std::mutex> lock(g_mutex);
  if (!g_lists[status_filter]) g_lists[status_filter] = new EventGroupList(Make(status_filter));
  return *g_lists[status_filter];
}

Status GroupMembersForProgram(int group_id, int members[MAX_COUNTERS]) {
  const GroupCatalog &groups = GroupCatalog::Get();
  if (!groups.load_status().ok()) return groups.load_status();
  const ResolvedGroup *group = groups.FindId(group_id);
  std::string prefix = "event-group id " + std::to_string(group_id);
  if (!group) return Status(Pmapi_InvalidGroup, groups.UnknownId(group_id));
  prefix += " (" + group->record.short_name + ")";
  int filter = ActiveFilter();
  if (!Listed(*group, filter)) {
    return Status(Pmapi_InvalidGroup, prefix + " is not in the list pm_initialize returned for " +
                                          "filter " + Hex(static_cast<unsigned>(filter)) +
                                          ": a member's status is " + "filtered out");
  }
  for (int counter = 0; counter < MAX_COUNTERS; ++counter) {
    size_t member = static_cast<size_t>(counter);
    members[counter] = member < group->members.size() ? group->members[member]->id : COUNT_NOTHING;
  }
  return Status::Ok();
}

}  // namespace pmapi
