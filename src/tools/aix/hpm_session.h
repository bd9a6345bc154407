// hpmcount's and hpmstat's counting, through pmcount's nouns (the command started stopped,
// the counting group or the system-wide context, the event selection, the program plans) and
// so through the public pmapi calls: no counting of their own. The results are turned into an
// HpmReport (hpm_report.h) and written where -o says.
#pragma once

#include <string>
#include <vector>

#include "event_choice.h"
#include "event_selection.h"
#include "hpm_options.h"
#include "mode.h"

namespace aix {

// The events, as pmcount selects them: one set, or one per multiplexed group.
struct Prepared {
  std::vector<pmcount::Selection> sets;
  pmcount::Mode mode;
  std::vector<std::string> notes;    // what Linux lacks for the options given
  std::vector<std::string> metrics;  // -D: the metrics to show (empty: all)
  long slice_ms = 100;               // multiplexing: each group's turn
};

// Selects the events of `choice` and the mode of `options`. Needs pm_initialize done.
// Returns "" or a usage error.
std::string Prepare(const HpmOptions &options, const EventChoice &choice, Prepared *prepared);

// Runs the command, counts it, writes the report. Returns hpmcount's exit status: the
// command's, or 126/127 when it cannot be run, 125 when counting failed or the -o file cannot
// be opened (the command is then not run).
int RunHpmcount(const HpmOptions &options, const Prepared &prepared);

// Counts the whole machine `count` times for `interval`. Returns hpmstat's exit status: 0, or
// 125 when counting failed
// or the -o file cannot be opened, 2 for a -@ workload partition.
int RunHpmstat(const HpmOptions &options, const Prepared &prepared);

}  // namespace aix
