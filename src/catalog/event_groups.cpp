// Building and caching the per-filter group lists, and the is_group lookup.
#include "catalog/event_groups.h"

#include <stdio.h>

#include <mutex>
#include <string>
#include <vector>

#include "catalog/group_catalog.h"
#include "catalog/init_state.h"
#include "catalog/text_fields.h"

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

EventGroupList Make(int status_filter) {
  const GroupCatalog &catalog = GroupCatalog::Get();
  std::vector<const ResolvedGroup *> listed;
  for (const ResolvedGroup &group : catalog.groups()) {
    if (Listed(group, status_filter)) listed.push_back(&group);
  }
  EventGroupList list;
  list.count = static_cast<int>(listed.size());
  if (listed.empty()) return list;  // maxgroups 0, no array
  list.groups = new pm_groups_t[listed.size()]();
  for (size_t i = 0; i < listed.size(); ++i) {
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
  if (!group) {
    return Status(Pmapi_InvalidGroup,
                  prefix + " is unknown: this machine lists groups 0.." +
                      std::to_string(static_cast<long long>(groups.listable_count()) - 1) +
                      " (pm_initialize with PM_GET_GROUPS; docs/catalog.md)");
  }
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
