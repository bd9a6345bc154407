/* SPDX-License-Identifier: MIT */
// Turns a Report and its snapshots into text: the human table, perf stat's CSV field order,
// perf's JSON lines or pmcount's own. Each call returns whole lines, so nothing is ever
// half-printed.
#pragma once

#include <memory>
#include <string>

#include "count_report.h"
#include "options.h"

namespace pmcount {

class Printer {
 public:
  virtual ~Printer() = default;
  // Printed once before the first -I interval (a column header, say); may be "".
  virtual std::string BeginIntervals(const Report &report) = 0;
  // One -I interval.
  virtual std::string Interval(const Report &report, const Snapshot &snapshot) = 0;
  // The final counts (after the intervals, if any).
  virtual std::string Final(const Report &report, const Snapshot &snapshot) = 0;
};

std::unique_ptr<Printer> MakeHumanPrinter();
std::unique_ptr<Printer> MakeCsvPrinter(const std::string &separator);
// pmcount's own JSON (--json): one object per interval and for the totals, with the command,
// notes, sets and statistics (share/doc/libpmapi/pmcount-json.schema.json).
std::unique_ptr<Printer> MakeJsonPrinter();
// perf stat -j's JSON (-j, --json-output): one object per event.
std::unique_ptr<Printer> MakePerfJsonPrinter();

// The command as one line for headings: arguments joined by spaces.
std::string CommandLine(const Report &report);

// Running share in percent: 0 for <not counted> (it never ran), 100 when nothing was enabled
// (<not supported>: there was nothing to share).
double PercentRunning(const Cell &cell);

}  // namespace pmcount
