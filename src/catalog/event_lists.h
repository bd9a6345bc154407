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

// Every counter lists exactly the catalog events whose status passes `status_filter` (perf
// schedules events onto counters, so any event can go on any counter). PM_CYC comes first in
// counter 0's list and PM_INST_CMPL first in counter 1's, where clients such as Paradyn look.
// Thread-safe; the same filter returns the same arrays.
const EventLists2 &EventListsForFilter2(int status_filter);
const EventLists1 &EventListsForFilter1(int status_filter);

}  // namespace pmapi
