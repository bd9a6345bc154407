/* SPDX-License-Identifier: MIT */
// -T: the _mx program for several event sets (each a Selection of its own), and one flat view
// of them (every set's events side by side, set 0's first) for the report and the metrics.
#pragma once

#include <pmapi.h>

#include <memory>
#include <string>
#include <vector>

#include "count_mode.h"
#include "event_selection.h"
#include "program_plan.h"

namespace tools {

// The sets side by side: events concatenated, metrics pointing at their set's events, notes
// merged; no group (a set may be one, the whole is not).
Selection FlattenSets(const std::vector<Selection> &sets, std::vector<int> *set_of_event);

struct MultiplexPlan {
  std::vector<Plan> sets;                      // one plain plan per set (never a group program)
  std::vector<std::vector<int>> counters;      // per set: each event's counter, or -1
  Plan flat;                                   // reasons and ids side by side, for the report
  std::vector<int> set_of_event;               // per flat event: its set
  std::unique_ptr<pm_events_prog_t[]> events;  // what events_set points to, one per set
  pm_prog_mx_t prog = {};                      // points into `events`: do not copy the plan
};

// Returns "" or why the sets cannot be multiplexed (a set with nothing countable here).
std::string MakeMultiplexPlan(const std::vector<Selection> &sets, const Mode &mode, long slice_ms,
                              MultiplexPlan *plan);

}  // namespace tools
