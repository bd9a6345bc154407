/* SPDX-License-Identifier: MIT */
// The per-counter event lists pm_initialize and pm_init hand out, built once per status
// filter and kept until exit (clients keep the pointers; AIX never asks them to free).
#pragma once

#include "pmapi.h"

namespace pmapi {

struct EventLists2 {
  int maxevents[MAX_COUNTERS];
  pm_events2_t *lists[MAX_COUNTERS];
};

struct EventLists1 {
  int maxevents[MAX_COUNTERS];
  pm_events_t *lists[MAX_COUNTERS];
};

// Every counter lists the same array: the listed catalog events (Catalog::listed_count())
// whose status passes `status_filter`, by increasing id (perf schedules events onto counters,
// so any event can go on any counter). Under the full filter (PM_VERIFIED | PM_UNVERIFIED |
// PM_CAVEAT) entry k has id k. Thread-safe; the same filter returns the same arrays.
const EventLists2 &EventListsForFilter2(int status_filter);
const EventLists1 &EventListsForFilter1(int status_filter);

}  // namespace pmapi
