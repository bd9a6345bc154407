/* SPDX-License-Identifier: MIT */
// Bad uses of libhpm: each kind is told on stderr once per process, counted
// always (the report lists the counts), and never stops the host program.
#pragma once

#include <atomic>

namespace hpm {

enum class Misuse {
  kBeforeInit,        // a call before hpmInit (or after hpmTerminate)
  kInitTwice,         // hpmInit while a run is going on
  kTerminateTwice,    // hpmTerminate with no run going on
  kIdOutOfRange,      // instID < 0 or > HPM_NUM_INST_PTS
  kStopWithoutStart,  // hpmStop of a section this thread has not started
  kUnbalanced,        // hpmStop of a section with sections nested in it still open
  kStartedTwice,      // hpmStart of a section this thread has open already
  kTooDeep,           // more nested sections than one thread may have open
  kOpenAtTerminate,   // sections still open at hpmTerminate
  kCount
};

// The counts of the run in progress (or of the last one), by kind.
struct MisuseCounts {
  std::atomic<long> counts[static_cast<int>(Misuse::kCount)] = {};
};

const char *MisuseKey(Misuse kind);  // a name for the report: "stop_without_start"

// Counts `kind` in `counts` (when not null) and says it on stderr the first
// time, with the caller's position when known and `id` when >= 0.
void Report(Misuse kind, MisuseCounts *counts, const char *file, int line, long id);

// In a forked child: a new process, told each kind afresh.
void ForgetWhatWasTold();

}  // namespace hpm
