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
  bool empty() const;
};

// Events the catalog already knows are not countable here are left out with its reason.
// A group whose members are all countable is programmed as the group (mode.b.is_group).
Plan MakePlan(const Selection &selection, const Mode &mode);

// Programs `plan` with `set` (which returns 0 or a pmapi code). If the kernel refuses one of
// the events, each event is tried alone (undone with `unset`), the refused ones are left out
// with pm_strerror's reason, and the rest is programmed. Returns 0 (possibly with nothing left
// to count) or the code of a refusal that is not about an event (privilege, say).
int Arm(Plan *plan, const std::function<int(const pm_prog_t &)> &set,
        const std::function<void()> &unset);

}  // namespace tools
