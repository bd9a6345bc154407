/* SPDX-License-Identifier: MIT */
// More events than one pmapi program holds: split them into sets of at most MAX_COUNTERS
// that take turns, as perf stat lets the kernel multiplex them, instead of refusing the list.
#pragma once

#include <string>

#include "options.h"

namespace pmcount {

// The slice each automatic set counts for. The kernel rotates perf's events every 4 ms; a
// pmapi set switch costs an ioctl per event, so 10 ms keeps that under a percent.
constexpr long kAutoSliceMs = 10;

// With no -T and more -e events than MAX_COUNTERS: fills options->sets with the events in
// order, MAX_COUNTERS to a set, sets multiplex_ms and auto_multiplex. Returns "" (also when
// nothing needed splitting) or what is wrong, for a usage error.
std::string SplitIntoSets(Options *options);

}  // namespace pmcount
