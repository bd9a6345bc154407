/* SPDX-License-Identifier: MIT */
// From what is counted to the report's lines: one set is counted through the counting session
// (session_counting.h: any number of events, each with its own levels, software events and
// tracepoints exact); several sets are AIX's multiplexed _mx program, each set counted in its
// own slices with its own duration, as AIX reports them. Each set's events and derived metrics
// come from a reading, summed over its targets.
#pragma once

#include <stddef.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "hpm_options.h"
#include "hpm_report.h"
#include "multiplex_plan.h"
#include "pmapi_counting.h"
#include "prepared.h"
#include "program_plan.h"
#include "session_counting.h"

namespace aix {

struct Programs {
  tools::Plan plan;         // one set: a session's plan (its events' specs and session indexes)
  tools::MultiplexPlan mx;  // several: multiplexed
  bool multiplexed = false;
};

// Builds the plans; returns "" or why the sets cannot be counted together.
std::string MakePrograms(const Prepared &prepared, Programs *programs);

// Counts on the target: several sets as the _mx program through `count_mx`, one set as a
// counting session on `places` (an event the kernel refuses is left out with its reason, the
// others counted). A refusal is said as "<tool>: <the library's sentence>", which names
// `set_call`'s _mx twin or pm_session_open and says what is missing (a privilege, a counter).
// Returns the pmapi code; `counting` holds what counts.
int ArmPrograms(Programs *programs, const char *tool, const char *set_call,
                const std::function<int(const pm_prog_mx_t &)> &count_mx,
                const tools::SessionPlaces &places, std::unique_ptr<tools::Counting> *counting);

// The note for a reading whose hardware events took turns on the counters (a session rotates
// them when they do not fit at once): their counts are estimates. "" when every event counted
// all its time.
std::string EstimatesNote(const std::vector<tools::Sample> &samples);

// Every set's lines from one reading: `targets` samples per set (the CPUs, or 1 for a
// command), set-major as pmcount's multiplexed reads are.
std::vector<SetResult> Results(const Prepared &prepared, const Programs &programs,
                               const std::vector<tools::Sample> &samples, size_t targets,
                               double wall_seconds);

// A report's header fields from the options and the preparation.
HpmReport BaseReport(const HpmOptions &options, const Prepared &prepared, bool multiplexed);

}  // namespace aix
