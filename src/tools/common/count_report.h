/* SPDX-License-Identifier: MIT */
// What pmcount prints, independent of how: the counted events and metrics, and snapshots of
// their values (the final one, or one per -I interval), split into rows (the total, or one per
// CPU, core or socket). The printers (printer.h) turn these into text.
#pragma once

#include <stdint.h>

#include <string>
#include <vector>

#include "count_options.h"

namespace tools {

enum class CellState { kCounted, kNotSupported, kNotCounted };

// One event in one row.
struct Cell {
  CellState state = CellState::kCounted;
  double value = 0;         // the count; with -r the mean over the runs
  double spread_pct = -1;   // with -r: relative standard error of the mean, in percent
  uint64_t enabled_ns = 0;  // time the counters were enabled (summed over CPUs)
  uint64_t running_ns = 0;  // time they actually counted; less only if the kernel multiplexed
  // -T: the set's raw count; `value` is then the estimate, enabled_ns the time any set counted
  // and running_ns the time this event's set counted.
  double raw = 0;
};

struct Row {
  std::string label;            // "" for the total; "CPU3", "S0-C1", "S0"
  int cpu = -1;                 // per-CPU rows: the Linux CPU number
  int cpus = 0;                 // CPUs summed into the row (per-core and per-socket rows)
  std::vector<Cell> cells;      // one per event
  std::vector<double> metrics;  // one per metric; NaN when a member was not counted
};

// --stats: one event across the reported CPUs.
struct Stat {
  bool valid = false;  // false when no CPU counted it
  double sum = 0, min = 0, max = 0, avg = 0;
};

struct Snapshot {
  bool interval = false;        // an -I line rather than the final counts
  uint64_t since_start_ns = 0;  // -I: when this interval ended, since counting started
  uint64_t span_ns = 0;         // the time the counts cover (for metrics' `time`)
  std::vector<Row> rows;
  std::vector<Stat> stats;  // --stats: one per event
};

// What perf stat knows an event as, for the metric it prints beside it (perf_metric.h).
enum class PerfKind {
  kOther,
  kClock,  // task-clock, cpu-clock: counted in ns, printed in msec
  kCycles,
  kInstructions,
  kBranches,
  kBranchMisses,
  kCacheReferences,
  kCacheMisses
};

struct EventInfo {
  std::string name;    // as the user wrote it ("cycles:u"), or the catalog's short name
  int id = 0;          // catalog event id
  std::string unit;    // "ns" for the clocks, else ""
  std::string reason;  // why it is <not supported>, "" when it is counted
  int set = -1;        // the event set (1, 2, ...) when multiplexed; -1 otherwise
  PerfKind kind = PerfKind::kOther;
};

struct MetricInfo {
  std::string name;   // "IPC"
  std::string group;  // the group that defines it: "pm_basic"
};

struct Report {
  std::vector<std::string> command;  // empty for -a without a command
  bool system_wide = false;
  std::string attached;  // -p, -t: "process 1234", "threads 5,6"; "" otherwise
  std::string cpus;      // -a: the reported CPUs, "0-1"
  std::string mode;      // "user+kernel", "user", "kernel"
  std::string group;     // -g, or the default group: its short name
  std::vector<EventInfo> events;
  std::vector<MetricInfo> metrics;
  // -x and -j: the metrics get lines of their own only when a group was asked for (-g); else
  // perf's metric beside each event says it, as perf's default output does.
  bool metric_lines = true;
  std::vector<std::string> notes;  // one line each, printed before the counts
  // The MPI rank when ranks share a terminal (a launcher's rank variable, no -o): the table's
  // lines and --json's objects say it, so that ranks printing at once stay apart.
  std::string rank;
  Aggregation aggregation = Aggregation::kTotal;
  bool stats = false;
  bool summary = false;  // --summary: -x and -j print the totals after the intervals too
  int runs = 1;
  long multiplex_ms = 0;  // -T: the slice; 0 when not multiplexed
  int sets = 0;           // -T: how many event sets
  int rounds = -1;        // -T: complete rounds through every set (pmapi's nb_mx_round)
  // The command's times (elapsed over the runs: mean and spread as for counts).
  bool has_times = false;
  double elapsed_ns = 0;
  double elapsed_spread_pct = -1;
  uint64_t user_ns = 0, system_ns = 0;
  // Whether user_ns and system_ns are known: false when attached targets (-p, -t) exited before
  // their times could be read (the command given with them is not what was counted).
  bool cpu_times_known = true;
  std::string ended;  // "killed by SIGINT" when it did not exit normally, else ""
  int exit_status = 0;
};

}  // namespace tools
