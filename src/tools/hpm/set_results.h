/* SPDX-License-Identifier: MIT */
// From the programs counted to the report's lines: the pmapi programs of the prepared sets (one
// plain plan, or the multiplexed one), and each set's events and derived metrics from a
// reading, summed over its targets.
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

namespace aix {

struct Programs {
  tools::Plan plan;         // one set
  tools::MultiplexPlan mx;  // several: multiplexed
  bool multiplexed = false;
};

// Builds the programs; returns "" or why the sets cannot be counted together.
std::string MakePrograms(const Prepared &prepared, Programs *programs);

// Sets `programs` on the target: the _mx program through `count_mx`, or the one set through
// pmcount's Arm and `count`. A refusal is said as "<tool>: <the library's sentence>", which
// names `set_call` (or its _mx twin) and says what is missing (a privilege, a counter).
// Returns the pmapi code; `counting` holds what counts.
int ArmPrograms(Programs *programs, const char *tool, const char *set_call,
                const std::function<int(const pm_prog_mx_t &)> &count_mx,
                const std::function<int(const pm_prog_t &)> &count,
                std::unique_ptr<tools::Counting> *counting);

// Every set's lines from one reading: `targets` samples per set (the CPUs, or 1 for a
// command), set-major as pmcount's multiplexed reads are.
std::vector<SetResult> Results(const Prepared &prepared, const Programs &programs,
                               const std::vector<tools::Sample> &samples, size_t targets,
                               double wall_seconds);

// A report's header fields from the options and the preparation.
HpmReport BaseReport(const HpmOptions &options, const Prepared &prepared, bool multiplexed);

}  // namespace aix
