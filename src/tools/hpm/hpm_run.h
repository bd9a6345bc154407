/* SPDX-License-Identifier: MIT */
// The two ways hpmcount and hpmstat count, once the events are prepared: a command, or the
// whole machine by intervals. Both go through the tools' kit (the command started stopped; one
// set through a counting session on the command's process or on every CPU, several through
// AIX's _mx program on its counting group or the system-wide context), so through the public
// pmapi calls.
#pragma once

#include "hpm_options.h"
#include "prepared.h"

namespace aix {

// Runs the command, counts it, writes the report. Returns hpmcount's exit status: the
// command's, or 126/127 when it cannot be run, 125 when counting failed or the -o file cannot
// be opened (the command is then not run).
int RunHpmcount(const HpmOptions &options, const Prepared &prepared);

// Counts the whole machine `count` times for `interval`. Returns hpmstat's exit status: 0, or
// 125 when counting failed or the -o file cannot be opened or written, 2 for a -@ workload
// partition.
int RunHpmstat(const HpmOptions &options, const Prepared &prepared);

}  // namespace aix
