/* SPDX-License-Identifier: MIT */
// What hpmcount and hpmstat print, in AIX's layout, from plain values: the wall clock header,
// the resource-usage block (getrusage), the counting mode, one line per event and the derived
// metrics block. Pure, so that the layout a script parses is unit-tested line by line.
#pragma once

#include <sys/resource.h>

#include <string>
#include <vector>

namespace aix {

struct EventLine {
  std::string name;       // "PM_CYC", "task-clock"
  std::string long_name;  // "Processor cycles"; "" when the catalog has none
  bool counted = true;
  unsigned long long value = 0;
  std::string reason;  // when not counted: why, in a few words
};

struct MetricLine {
  std::string name;
  double value = 0;     // NaN: no value (a member not counted, a division by zero)
  std::string formula;  // shown with -x
};

// One event set: the whole selection, or one multiplexed group.
struct SetResult {
  std::string group;   // the group's short name, "" for an event list
  double seconds = 0;  // the time this set counted
  std::vector<EventLine> events;
  std::vector<MetricLine> metrics;
};

struct HpmReport {
  // hpmcount: the workload and its resource usage (has_usage).
  std::string workload;  // the command's name
  int pid = 0;
  bool has_usage = false;
  struct rusage usage = {};
  std::string timestamp;  // hpmstat -T: "seconds.microseconds" of the report's end, else ""
  double wall_seconds = 0;
  std::string mode;                // "user", "kernel", "user+kernel"
  std::vector<std::string> notes;  // lines saying what Linux lacks (hypervisor, runlatch, ...)
  bool multiplexed = false;        // several sets: each printed with its name and duration
  bool detailed = false;           // -d
  bool formulas = false;           // -x
  bool metrics = true;             // false under hpmstat -U
  std::vector<SetResult> sets;
};

// The report as AIX prints it.
std::string FormatReport(const HpmReport &report);

// Only the resource-usage block, "########  Resource Usage Statistics  ########" to its end.
std::string FormatUsage(const struct rusage &usage);

// The -o file's name for hpmcount: file_<task>.<pid>, as AIX names it, the task being MP_CHILD
// (`mp_child`, null when unset) written in four digits, 0000 outside a parallel job.
std::string HpmcountOutputName(const std::string &file, const char *mp_child, int pid);

}  // namespace aix
