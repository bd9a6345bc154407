// Event groups for pm_initialize(PM_GET_GROUPS). None yet: groups arrive with the groups/
// tables. This is the one place pm_initialize asks, so adding them changes nothing else.
#pragma once

#include "pmapi.h"

namespace pmapi {

struct EventGroupList {
  int count = 0;
  pm_groups_t *groups = nullptr;  // never freed; valid until exit
};

// The groups whose every event passes `status_filter`.
EventGroupList EventGroupsForFilter(int status_filter);

}  // namespace pmapi
