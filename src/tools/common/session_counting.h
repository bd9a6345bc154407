/* SPDX-License-Identifier: MIT */
// Counting through the counting session (pmapi_session.h, public calls only): any number of
// events, each with its own privilege levels, on a command and everything it starts, on CPUs,
// or on attached threads and processes. A software event or a tracepoint has descriptors of
// its own, so none takes turns with another, however many there are.
#pragma once

#include <sys/types.h>

#include <memory>
#include <string>
#include <vector>

#include "attach_targets.h"
#include "count_mode.h"
#include "event_selection.h"
#include "pmapi_counting.h"
#include "program_plan.h"

namespace tools {

// Where a session counts: a command, or CPUs, or attached targets.
struct SessionPlaces {
  pid_t command = 0;                  // a stopped command: its process and all it starts
  std::vector<int> cpus;              // -a: Linux CPUs; reads give a Sample per CPU, in order
  std::vector<AttachTarget> targets;  // -p, -t: reads give a Sample per target, in order
};

// The session's levels of an event: its own :u/:k when it chose them, else `mode`'s. Both
// user and kernel exclude nothing (no suffix), as pmcount's programs count both modes and perf
// counts an event written bare, so PMUs that refuse any exclusion (msr) count.
std::string LevelsOf(const SelectedEvent &event, const Mode &mode);

// The plan of `selection` for a session: each event the catalog deems countable with its id
// and levels (Plan::specs); the others keep the catalog's reason.
Plan MakeSessionPlan(const Selection &selection, const Mode &mode);

// Opens a session of `plan`'s events on `places`, counting at once when `on` (else Start()
// turns it on). When the kernel refuses an event, each is tried alone and the refused ones are
// left out with pm_strerror's reason, as Arm does for a program. Sample values are indexed by
// plan->counter_of_event, each with its own times. Returns 0 (*out empty when nothing is left
// to count) or the pmapi code of a refusal that is not about an event (pm_strerror has its
// sentence).
int CountWithSession(Plan *plan, const SessionPlaces &places, bool on,
                     std::unique_ptr<Counting> *out);

}  // namespace tools
