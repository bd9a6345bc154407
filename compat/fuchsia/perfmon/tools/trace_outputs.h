/* SPDX-License-Identifier: MIT */
// What cpuperf makes of the saved buffers: the per-event tallies per CPU (the default), the
// record dump (cpuperf_print's raw format), and a Chrome JSON trace that Perfetto opens, with
// one counter track per event and CPU.
#pragma once

#include <stdint.h>
#include <stdio.h>

#include <string>
#include <vector>

#include "session_spec.h"

namespace cpuperf {

// One CPU's buffer of one iteration, up to capture_end.
struct SavedTrace {
  uint32_t iteration = 0;
  uint32_t trace = 0;  // the buffer: the CPU's index
  std::vector<uint8_t> bytes;
};

void PrintTallies(FILE *out, const SessionSpec &spec, const std::vector<SavedTrace> &traces);
// Returns false if a buffer has a bad record (said in the output, as cpuperf_print does).
bool PrintRecords(FILE *out, const std::vector<SavedTrace> &traces);
// Returns "" or why the file could not be written.
std::string WriteChromeTrace(const std::string &path, const SessionSpec &spec,
                             const std::vector<SavedTrace> &traces);

// The events each buffer counted, per spec event: for a sampled event, samples x rate plus the
// final COUNT (the count since the last sample); for the others the last COUNT or VALUE.
std::vector<uint64_t> Tally(const SessionSpec &spec, const SavedTrace &trace, bool *full);

}  // namespace cpuperf
