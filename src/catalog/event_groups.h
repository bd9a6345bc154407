/* SPDX-License-Identifier: MIT */
// Event groups for pm_initialize(PM_GET_GROUPS) and for programs with mode.b.is_group, built
// from the GroupCatalog per status filter and kept until exit (clients keep the pointers).
#pragma once

#include "base/status.h"
#include "pmapi.h"

namespace pmapi {

struct EventGroupList {
  int count = 0;
  pm_groups_t *groups = nullptr;  // never freed; valid until exit
};

// The listable groups (ResolvedGroup::id >= 0) whose every member passes `status_filter` (so
// the group's own status passes it too), by increasing id; under the full filter entry k is
// group k. Each events array has MAX_COUNTERS entries: the members' event ids on counters
// 0..n-1, then the filler event (GroupCatalog::FillerFor), never COUNT_NOTHING. Thread-safe;
// the same filter returns the same arrays.
EventGroupList EventGroupsForFilter(int status_filter);

// The member ids, per counter (COUNT_NOTHING after the last member: free counters are not
// opened), of the group `group_id` if pm_initialize's filter lists it; otherwise
// Pmapi_InvalidGroup naming the id and saying why (unknown here, or a member's status
// filtered out), or the groups/ tables' load error.
Status GroupMembersForProgram(int group_id, int members[MAX_COUNTERS]);

}  // namespace pmapi
