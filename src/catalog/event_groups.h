// Event groups for pm_initialize(PM_GET_GROUPS) and for programs with mode.b.is_group, built
// from the GroupCatalog per status filter and kept until exit (clients keep the pointers).
#pragma once

#include "core/status.h"
#include "pmapi.h"

namespace pmapi {

struct EventGroupList {
  int count = 0;
  pm_groups_t *groups = nullptr;  // never freed; valid until exit
};

// The groups whose every member is in the catalog and passes `status_filter` (so the group's
// own status passes it too), by increasing id. Each events array has MAX_COUNTERS entries:
// the members' catalog ids on counters 0..n-1, then COUNT_NOTHING. Thread-safe; the same
// filter returns the same arrays.
EventGroupList EventGroupsForFilter(int status_filter);

// The member ids, per counter, of the group `group_id` if pm_initialize's filter lists it;
// otherwise Pmapi_InvalidGroup naming the id and saying why (unknown, a member missing here,
// or its status filtered out), or the groups/ tables' load error.
Status GroupMembersForProgram(int group_id, int members[MAX_COUNTERS]);

}  // namespace pmapi
