/* SPDX-License-Identifier: MIT */
// The command lines of hpmcount and hpmstat as AIX documents them, parsed without touching the
// machine: a pure function of the arguments, so that it can be unit-tested. AIX's flags are
// single letters parsed the getopt way (-dk is -d -k; -gNAME is -g NAME), and the options end
// at the first word that is not one (hpmcount's command) or at "--".
#pragma once

#include <string>
#include <vector>

namespace aix {

enum class Tool { kHpmcount, kHpmstat };

struct HpmOptions {
  Tool tool = Tool::kHpmcount;
  bool aggregate = false;          // -a (hpmcount): one report over an MPI job's tasks
  std::string time_base = "time";  // -b time|purr|spurr
  bool detailed = false;           // -d
  std::string metrics;             // -D: a comma list of derived metrics
  std::string groups;              // -g: a comma list of group names or numbers
  std::string sets;                // -s: a comma list of set numbers (0: every set)
  std::string events;              // -e: a comma list of event names (a libpmapi addition)
  bool hypervisor = false;         // -H
  bool kernel = false;             // -k
  bool user = false;               // -u (hpmstat)
  std::string metric_groups;       // -m
  std::string output;              // -o: the name the output file is made from
  bool quiet = false;              // -n (the HPM Toolkit's): no report on standard output
  bool extended = false;           // -x: each derived metric with its formula
  bool help = false;               // -h
  bool version = false;            // --version
  // hpmstat only.
  bool runlatch = false;             // -r
  bool timestamps = false;           // -T
  bool microseconds = false;         // -U: interval in microseconds, counting until stopped
  std::string wpar;                  // -@ ALL | name
  std::string tuning;                // -O options
  long interval = 1;                 // seconds (microseconds with -U)
  long count = 1;                    // iterations; 0 with -U: until interrupted
  std::vector<std::string> command;  // hpmcount: the command and its arguments
};

// Parses `args` (argv without argv[0]) for `tool`. Returns "" or one sentence saying what is
// wrong, for "<tool>: <sentence>" and the usage line.
std::string ParseHpmOptions(Tool tool, const std::vector<std::string> &args, HpmOptions *options);

// The usage text of `tool` (-h).
std::string HpmUsage(Tool tool);

// "hpmcount" or "hpmstat".
const char *ToolName(Tool tool);

}  // namespace aix
