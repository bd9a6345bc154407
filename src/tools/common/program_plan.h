/* SPDX-License-Identifier: MIT */
// The plan of a selection: the pmapi program of one _mx set, or a session's events
// (session_counting.h), and why an event is left out, so that one event the kernel refuses does
// not take the others down with it: the tools, like perf stat, show what they could count
// beside <not supported>.
#pragma once

#include <pmapi.h>

#include <string>
#include <vector>

#include "count_mode.h"
#include "event_selection.h"

namespace tools {

struct Plan {
  pm_prog_t prog = {};
  std::vector<int> ids;               // per selected event: its catalog id
  std::vector<int> counter_of_event;  // per selected event: its counter, or -1
  std::vector<std::string> reasons;   // per selected event: why it is not counted, or ""
  // A session's plan (session_counting.h): per selected event, what pm_session_add_events
  // takes for it ("1234:u", its id and levels); counter_of_event is then its session index.
  std::vector<std::string> specs;
  bool empty() const;
};

// Events the catalog already knows are not countable here are left out with its reason.
// A group whose members are all countable is programmed as the group (mode.b.is_group).
Plan MakePlan(const Selection &selection, const Mode &mode);

// Whether a refusal is about an event (or the events together) rather than the whole attempt:
// then each event is tried alone, and the refused ones are left out with their reason.
bool AboutAnEvent(int rc);

// pm_strerror's sentence for `rc` without its "where: " prefix: why an event is not counted.
std::string RefusalReason(int rc);

}  // namespace tools
