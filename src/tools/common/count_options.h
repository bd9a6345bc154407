/* SPDX-License-Identifier: MIT */
// What to count, where, and how to show it: the request pmcount's command line fills and
// hpmcount and hpmstat build from AIX's options, which the counting nouns of the kit (event
// selection, mode, plans, targets) take.
#pragma once

#include <string>
#include <vector>

namespace tools {

// kPerThread: --per-thread, rows per attached thread (set from per_thread, never parsed).
enum class Aggregation { kTotal, kPerCpu, kPerCore, kPerSocket, kPerThread };
// kJson: pmcount's own JSON (--json); kPerfJson: perf stat -j's (-j, --json-output).
enum class Format { kHuman, kCsv, kJson, kPerfJson };

// With -T each -e list and each -g group is one event set, in the order given.
struct SetArgument {
  bool is_group = false;
  std::string text;  // the -e list, or the group's name or id
};

// pmcount multiplexes at most this many sets (the library's limit for one _mx program).
constexpr int kMaxMultiplexSets = 64;

struct Options {
  bool attached() const { return !pids.empty() || !tids.empty(); }
  std::vector<std::string> event_lists;  // each -e argument, in order
  std::string group;                     // -g: a group's short name or id (the first one)
  std::vector<std::string> metrics;      // -M: metric or group names, as given
  // The metrics of `group` to show (-M names metrics): the others are left out. Empty: all.
  std::vector<std::string> metric_names;
  std::vector<SetArgument> sets;  // every -e and -g, in order (the sets under -T)
  long multiplex_ms = 0;          // -T: the slice in ms, 0 = not multiplexed
  bool user = false;              // -u
  bool kernel = false;            // -k
  bool system_wide = false;       // -a
  bool cpus_given = false;        // -C
  std::vector<int> cpus;          // -C, sorted, no repeats
  Aggregation aggregation = Aggregation::kTotal;
  bool stats = false;     // --stats
  long interval_ms = 0;   // -I, 0 = none
  int repeat = 1;         // -r
  double duration_s = 0;  // --duration (--time), 0 = none
  // Attach (perf's -p, -t): processes or threads already running, instead of a command (a
  // command given with them only sets how long to count, as with -a).
  std::vector<int> pids;    // -p
  std::vector<int> tids;    // -t
  bool per_thread = false;  // --per-thread: a row per thread
  long interval_count = 0;  // --interval-count: stop after this many -I intervals, 0 = never
  long delay_ms = 0;        // -D: count only from this long after the start
  bool summary = false;     // --summary: totals after -I intervals in -x and -j output too
  Format format = Format::kHuman;
  std::string separator;    // -x
  std::string output_path;  // -o, "" = stderr
  bool help = false;
  bool version = false;
  std::vector<std::string> command;  // what follows the options (or --)

  std::string timeline_path;  // --timeline: an HTML chart of the -I intervals, "" = none
};

}  // namespace tools
