// One pmcount invocation once the command line, the catalog and the machine checks have all
// passed: program the counters (per run), run the command or wait, read, print.
#pragma once

#include <string>
#include <vector>

#include "aggregation.h"
#include "event_selection.h"
#include "mode.h"
#include "options.h"
#include "printer.h"
#include "report.h"

namespace pmcount {

// Where the counts go: stderr, or the -o file. Writes whole strings.
class Output {
 public:
  explicit Output(int fd) : fd_(fd) {}
  bool Write(const std::string &text);

 private:
  int fd_;
};

struct Setup {
  const Options *options = nullptr;
  Selection selection;
  Mode mode;
  std::vector<int> cpus;         // -a: the reported Linux CPUs, ascending
  std::vector<CpuPlace> places;  // -a: the same CPUs with their core and socket
};

// Runs everything and returns pmcount's exit status. Messages about failures go to stderr
// prefixed "pmcount: ".
int RunSession(const Setup &setup, Report *report, Printer *printer, Output *output);

}  // namespace pmcount
