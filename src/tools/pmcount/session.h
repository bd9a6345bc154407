/* SPDX-License-Identifier: MIT */
// One pmcount invocation once the command line, the catalog and the machine checks have all
// passed: program the counters (per run), run the command or wait, read, print.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "attach_targets.h"
#include "count_mode.h"
#include "count_report.h"
#include "count_rows.h"
#include "event_selection.h"
#include "options.h"
#include "printer.h"

namespace pmcount {

// Where the counts go: stderr, or the -o file. Writes whole strings, and remembers the first
// failure: the command is running (or has run) by then, so a full disk must neither stop
// waiting for it nor replace its exit status; RunSession reports the failure at the end.
class Output {
 public:
  Output(int fd, std::string name) : fd_(fd), name_(std::move(name)) {}
  bool Write(const std::string &text);

  bool failed() const { return error_ != 0; }
  int error() const { return error_; }  // the errno of the first failed write
  const std::string &name() const { return name_; }

 private:
  int fd_;
  std::string name_;  // "standard error", or the -o file's name, for messages
  int error_ = 0;
};

struct Setup {
  const Options *options = nullptr;
  Selection selection;          // with -T: every set's events side by side (FlattenSets)
  std::vector<Selection> sets;  // -T: each event set; empty otherwise
  Mode mode;
  std::vector<int> cpus;              // -a: the reported Linux CPUs, ascending
  std::vector<CpuPlace> places;       // -a: the same CPUs with their core and socket
  std::vector<AttachTarget> targets;  // -p, -t: what to count, in order
};

// Runs everything and returns pmcount's exit status. Messages about failures go to stderr
// prefixed "pmcount: ".
int RunSession(const Setup &setup, Report *report, Printer *printer, Output *output);

}  // namespace pmcount
