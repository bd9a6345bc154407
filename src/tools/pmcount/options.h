// pmcount's command line, parsed without touching the machine: a pure function of the
// arguments, so that it can be unit-tested and fuzzed. Whatever needs the machine (do the
// events exist, are the CPUs online) is checked later, still before anything is printed.
#pragma once

#include <string>
#include <vector>

namespace pmcount {

enum class Aggregation { kTotal, kPerCpu, kPerCore, kPerSocket };
enum class Format { kHuman, kCsv, kJson };

struct Options {
  std::vector<std::string> event_lists;  // each -e argument, in order
  std::string group;                     // -g: a group's short name or id
  bool user = false;                     // -u
  bool kernel = false;                   // -k
  bool system_wide = false;              // -a
  bool cpus_given = false;               // -C
  std::vector<int> cpus;                 // -C, sorted, no repeats
  Aggregation aggregation = Aggregation::kTotal;
  bool stats = false;     // --stats
  long interval_ms = 0;   // -I, 0 = none
  int repeat = 1;         // -r
  double duration_s = 0;  // -t, 0 = none
  Format format = Format::kHuman;
  std::string separator;    // -x
  std::string output_path;  // -o, "" = stderr
  bool help = false;
  bool version = false;
  std::vector<std::string> command;  // what follows the options (or --)
};

// Parses `args` (argv without argv[0]). Returns "" on success, otherwise one sentence saying
// what is wrong, for "pmcount: <sentence>" and a pointer to --help. With --help or --version
// the rest is not validated.
std::string ParseOptions(const std::vector<std::string> &args, Options *options);

// Parses a CPU list such as "0-3,6" into sorted, distinct numbers. Returns "" or what is wrong.
std::string ParseCpuList(const std::string &text, std::vector<int> *cpus);

// The inverse: "0-3,6".
std::string FormatCpuList(const std::vector<int> &cpus);

// The text of --help.
std::string UsageText();

}  // namespace pmcount
