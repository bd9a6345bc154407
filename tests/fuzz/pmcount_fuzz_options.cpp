// SPDX-License-Identifier: MIT
// libFuzzer target: pmcount's command line (src/tools/pmcount/options.h). The input is the
// argument vector, arguments separated by NUL bytes. ParseOptions must return "" or a
// message without crashing, and what it accepts must hold together: a CPU list formats and
// parses back to itself, counts and intervals stay in their ranges, and a command is there
// unless -a, -p or -t (or --help/--version) made it optional.
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <string>
#include <vector>

#include "options.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::vector<std::string> args(1);
  for (size_t i = 0; i < size; ++i) {
    if (data[i] == '\0') {
      args.emplace_back();
    } else {
      args.back().push_back(static_cast<char>(data[i]));
    }
  }
  pmcount::Options options;
  const std::string error = pmcount::ParseOptions(args, &options);
  if (!error.empty() || options.help || options.version) return 0;
  if (options.command.empty() && !options.system_wide && !options.attached()) abort();
  if (options.system_wide && options.attached()) abort();  // -a and -p/-t are refused
  for (int id : options.pids) {
    if (id <= 0) abort();
  }
  for (int id : options.tids) {
    if (id <= 0) abort();
  }
  if (options.repeat < 1 || options.repeat > 100) abort();
  if (options.interval_ms != 0 && options.interval_ms < 10) abort();
  if (options.format == pmcount::Format::kCsv && options.separator.empty()) abort();
  std::vector<int> again;
  if (!pmcount::ParseCpuList(pmcount::FormatCpuList(options.cpus), &again).empty()) {
    if (!options.cpus.empty()) abort();  // only the empty list has no text
  } else if (again != options.cpus) {
    abort();
  }
  return 0;
}
