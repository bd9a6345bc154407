/* SPDX-License-Identifier: MIT */
// -I: whether the last, partial interval (from the last tick to the command's end) is printed.
#pragma once

#include <vector>

#include "options.h"
#include "pmapi_counting.h"

namespace pmcount {

// `delta` holds the final reading minus the last tick's. A tick can read the counters after
// the command has exited but before the wait loop has reaped it: that tick already has the
// final counts, and the span after it is empty (no counter was enabled in it for a moment,
// so every event would print as not counted, percent_running 100, after the command's last
// real interval). Such an empty tail is not an interval of the command and is not printed,
// unless no interval was printed at all. A failed read is printed, to say so.
bool PrintFinalInterval(const std::vector<Sample> &delta, bool intervals_printed);

}  // namespace pmcount
