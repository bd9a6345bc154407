/* SPDX-License-Identifier: MIT */
// pmcount -e with shell wildcards ('syscalls:sys_enter_*', 'PM_*MISS*'): each pattern becomes
// the countable events whose names it matches (pm_catalog_match, the rule pmlist searches
// by), before the events are selected: pm_select_events takes names only, and a pattern may
// match hundreds.
#pragma once

#include <string>

#include "options.h"

namespace pmcount {

// Replaces every event of the -e lists whose name holds a wildcard by the countable catalog
// events it matches, in id order, each with the pattern's modifiers (":u"); an event a pattern
// matches that is already listed is not repeated. Needs the catalog (pm_initialize first).
// Returns "" or what is wrong, for a usage error: a pattern nothing matches (with the closest
// names), one that matches only events this machine cannot count, more events than pmcount
// can open together (-T's multiplexing bound, or the file descriptor limit: what to do).
std::string ExpandEventPatterns(Options *options);

}  // namespace pmcount
