/* SPDX-License-Identifier: MIT */
// A session's hardware events packed into groups that fit the processor's counters. Events are
// taken in order, at most MAX_COUNTERS to a group; each group is tried with the fit check that
// pm_set_program* makes (CounterGroup::CheckSchedulable, on the calling thread) and split in
// two until its parts fit. An event that does not fit even alone is refused, never counted
// silently as nothing.
#pragma once

#include <stddef.h>

#include <vector>

#include "base/status.h"
#include "core/program.h"
#include "core/session_event.h"

namespace pmapi {

// The program of `events[indices]`, in that order, on counters 0, 1, ...
Program ProgramOf(const std::vector<SessionEvent> &events, const std::vector<size_t> &indices);

// Fills `groups` with the indices into `events` of each group of hardware events (other kinds
// are left out). Pmapi_NotSchedulable names an event that does not fit alone; a failed open
// (no hardware PMU, say) is returned as it is.
Status PackHardwareEvents(const std::vector<SessionEvent> &events,
                          std::vector<std::vector<size_t>> *groups);

}  // namespace pmapi
