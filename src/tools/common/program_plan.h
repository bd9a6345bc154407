/* SPDX-License-Identifier: MIT */
// The pmapi program for a selection, and programming it so that one event the kernel refuses
// does not take the others down with it: pmapi programs are all-or-nothing (one pinned perf
// group), while pmcount, like perf stat, shows what it could count beside <not supported>.
#pragma once

#include <pmapi.h>

#include <functional>
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

// Programs `plan` with `set` (which returns 0 or a pmapi code). If the kernel refuses one of
// the events, each event is tried alone (undone with `unset`), the refused ones are left out
// with pm_strerror's reason, and the rest is programmed. Returns 0 (possibly with nothing left
// to count) or the code of a refusal that is not about an event (privilege, say).
// Whether a refusal is about an event (or the events together) rather than the whole attempt.
bool AboutAnEvent(int rc);

// pm_strerror's sentence for `rc` without its "where: " prefix: why an event is not counted.
std::string RefusalReason(int rc);

int Arm(Plan *plan, const std::function<int(const pm_prog_t &)> &set,
        const std::function<void()> &unset);

}  // namespace tools
