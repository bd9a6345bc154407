// SPDX-License-Identifier: MIT
// The library as the module sees it: initialized once, on first need (pm_initialize with every
// status and the groups), and what that call lists, for names and descriptions by id.
#pragma once

#include <pmapi.h>

#include <string>

namespace pmapi_python {

// Initializes libpmapi the first time (throws Failure if it cannot); later calls return at once.
void EnsureInitialized();

// The catalog's entry for `event_id`, or NULL when pm_initialize listed no such id (an added
// event, counted by name only).
const pm_events2_t *EventById(int event_id);

// The groups pm_initialize listed.
const pm_groups_info_t &Groups();

// The short name, as the library spells it, of the group named `name` ignoring case, or NULL.
const char *GroupNamed(const std::string &name);

}  // namespace pmapi_python
