/* SPDX-License-Identifier: MIT */
// -o under a launcher: "counts.%r.csv" gives each rank a file of its own. %r is the rank
// (the launchers' variables of src/report/launcher_rank.h), %h the host name,
// %p the process id, %% a percent sign. A file name ending in .csv or .json also chooses that
// format when no -x or --json did.
#pragma once

#include <string>

#include "options.h"

namespace pmcount {

// The rank the launcher gave this process (the first of the variables above that is set),
// or "" outside a launcher.
std::string LauncherRank();

// Expands options->output_path in place and picks the format from its extension. Returns ""
// or what is wrong (an unknown %-directive, %r with no rank in the environment).
std::string ApplyOutputPattern(Options *options);

}  // namespace pmcount
