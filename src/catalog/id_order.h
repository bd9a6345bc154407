/* SPDX-License-Identifier: MIT */
// The order that gives catalog events their ids. AIX clients index
// pm_info2_t.list_events[counter][event_id] directly and copy the lists into fixed arrays
// (PAPI's holds 1,024 entries), so an id is the event's position in the lists, the lists are
// bounded, and what does not fit still has an id -- after the listed ones -- so that it can be
// counted by name (docs/catalog.md, "Event ids").
#pragma once

#include <stddef.h>

#include <string>
#include <vector>

#include "catalog/catalog.h"

namespace pmapi {

// The list bound AIX clients' fixed tables assume.
constexpr size_t kDefaultListedEvents = 1024;

// Tracepoints listed by default: every one a compiled-in group names fits here.
constexpr const char *kDefaultTracepointPatterns = "raw_syscalls:*,sched:*,syscalls:sys_enter_*";

struct IdOrder {
  std::vector<size_t> positions;  // positions[id]: where event `id` is stored
  size_t listed = 0;              // ids 0..listed-1 are in pm_initialize's lists
};

// Whether `name` matches one of the comma- or blank-separated fnmatch(3) patterns.
bool MatchesAnyPattern(const std::string &name, const std::string &patterns);

// The id order for `events` (each source's events in the order the sources produced them;
// table events in table-id order at [table_position, +table_count)): listed, in this order,
// every table event, libpfm4 hardware events, kernel software events, sysfs PMU events, the
// default tracepoints, then those matching `extra_tracepoints`; hardware and sysfs events only
// while the total without the extra tracepoints stays within `listed_bound` (the tables,
// software events and default tracepoints are always listed; the extra ones come on top and
// move no other id). Then, unlisted, the other tracepoints (so that listing them all with "*"
// changes no id), then the remaining hardware and sysfs events, each in source order.
IdOrder OrderIds(const std::vector<CatalogEvent> &events, size_t table_position, size_t table_count,
                 const std::string &extra_tracepoints, size_t listed_bound = kDefaultListedEvents);

}  // namespace pmapi
