/* SPDX-License-Identifier: MIT */
// Which events libhpm counts: HPM_EVENT_SET, else a libHPMevents file in the
// working directory, else the defaults; resolved by pm_select_events
// (pmapi_select.h) into one pm_prog_t for every thread's _mythread context.
#pragma once

#include <pmapi.h>
#include <pmapi_metrics.h>

#include <string>
#include <vector>

namespace hpm {

struct EventSet {
  pm_prog_t prog;                  // counting on, user and kernel mode
  std::vector<std::string> names;  // the event on each counter, counter 0 first
  std::string description;         // "group pm_sw_basic (100)" or "events a,b"
  std::string source;              // "HPM_EVENT_SET", "libHPMevents" or "defaults"
  int group_id = -1;               // the group's id when the set is a group, else -1
  // The calling thread was programmed here, not found programmed already (by the host, or by
  // an inherited context): what a run that is given up must undo.
  bool programmed_here = false;
  // The group's derived metrics (pmapi_metrics.h; the library's storage), and how many of
  // the counters above hold the members their formulas read. None for an event list.
  const pm_metric_t *metrics = nullptr;
  int num_metrics = 0;
  int metric_members = 0;
};

// Chooses the events and programs the calling thread with them. A request
// that names nothing known, or that the kernel refuses, is reported on
// stderr once and replaced by the defaults. False when not even the
// defaults could be programmed (the message says why): sections then
// count calls and time only.
bool ChooseAndProgram(EventSet *out);

}  // namespace hpm
