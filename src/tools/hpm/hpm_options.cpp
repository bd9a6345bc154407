// SPDX-License-Identifier: MIT
#include "hpm_options.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "option_table.h"

namespace aix {
namespace {

// A day in seconds (in microseconds with -U) and a million iterations: far beyond any use,
// and small enough that interval * count cannot overflow.
constexpr long kMaxInterval = 86400;
constexpr long kMaxIntervalUs = 86400L * 1000000;
constexpr long kMaxCount = 1000000;

bool ParseNumber(const std::string &text, long low, long high, long *out) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos) return false;
  errno = 0;
  char *end = nullptr;
  const long value = strtol(text.c_str(), &end, 10);
  if (errno != 0 || *end != '\0' || value < low || value > high) return false;
  *out = value;
  return true;
}

std::string Apply(char flag, const std::string &value, HpmOptions *o) {
  switch (flag) {
    case 'a':
      o->aggregate = true;
      break;
    case 'b':
      if (value != "time" && value != "purr" && value != "spurr") {
        return "-b takes time, purr or spurr (got '" + value + "')";
      }
      o->time_base = value;
      break;
    case 'd':
      o->detailed = true;
      break;
    case 'D':
      o->metrics = value;
      break;
    case 'e':
      o->events = value;
      break;
    case 'g':
      o->groups = value;
      break;
    case 'H':
      o->hypervisor = true;
      break;
    case 'h':
      o->help = true;
      break;
    case 'k':
      o->kernel = true;
      break;
    case 'm':
      o->metric_groups = value;
      break;
    case 'n':
      o->quiet = true;
      break;
    case 'O':
      o->tuning = value;
      break;
    case 'o':
      o->output = value;
      break;
    case 'r':
      o->runlatch = true;
      break;
    case 's':
      o->sets = value;
      break;
    case 'T':
      o->timestamps = true;
      break;
    case 'U':
      o->microseconds = true;
      break;
    case 'u':
      o->user = true;
      break;
    case 'x':
      o->extended = true;
      break;
    case '@':
      o->wpar = value;
      break;
    default:
      break;
  }
  if (value.empty() && strchr("bDegmOos@", flag)) {
    return std::string("-") + flag + " needs a non-empty value";
  }
  return "";
}

// hpmcount's and hpmstat's options, each one row (tools::OptionTable): -h lists the same rows.
tools::OptionTable Table(Tool tool, HpmOptions *o) {
  const bool count = tool == Tool::kHpmcount;
  struct Row {
    char flag;
    const char *argument;
    const char *help;
  };
  const Row rows[] = {
      {'g', "groups",
       "event groups by name or number (pmlist -g -1); a comma list multiplexes them"},
      {'s', "sets", "set numbers: on Linux a set is a group, so the same as -g; 0 is every group"},
      {'e', "events", "any number of event names (pmlist), each may end :u or :k; not on AIX"},
      {'u', nullptr, count ? nullptr : "user mode only"},
      {'k', nullptr,
       count ? "count kernel mode too (the default is user mode only)"
             : "kernel mode only (default: both)"},
      {'H', nullptr, "count hypervisor mode too (not separable on Linux: said in the output)"},
      {'D', "metrics", "only these derived metrics"},
      {'m', "groups", "the metrics of these groups"},
      {'d', nullptr, "per-set details (counting time of each multiplexed group)"},
      {'x', nullptr, "show each derived metric's formula"},
      {'o', "file",
       count ? "write to file_<MP_CHILD or 0000>.<pid> instead of standard output"
             : "write to file instead of standard output"},
      {'n', nullptr,
       count ? "no report on standard output (the HPM Toolkit's flag; -o still writes)" : nullptr},
      {'b', "base", "time, purr or spurr (the last two are the wall clock on Linux)"},
      {'a', nullptr,
       count ? "one report over a parallel job's tasks: HPM_LOG_DIR/hpm_log.<job>" : nullptr},
      {'T', nullptr,
       count ? nullptr : "prefix each report with its time stamp (seconds.microseconds)"},
      {'U', nullptr,
       count ? nullptr : "interval in microseconds, count until interrupted, no derived metrics"},
      {'r', nullptr, count ? nullptr : "runlatch: not on Linux (said in the output)"},
      {'O', "options", count ? nullptr : "tuning options: none on Linux (said in the output)"},
      {'@', "ALL", count ? nullptr : "every workload partition: the whole machine on Linux"},
  };
  std::vector<tools::Option> options;
  for (const Row &row : rows) {
    if (!row.help) continue;  // not this tool's
    const char flag = row.flag;
    options.push_back({"", flag, row.argument, row.help,
                       [o, flag](const std::string &value, const std::string &) {
                         return Apply(flag, value, o);
                       }});
  }
  options.push_back(
      {"help", 'h', nullptr, "this text", [o](const std::string &, const std::string &) {
         o->help = true;
         return std::string();
       }});
  options.push_back(
      {"version", 0, nullptr, "the version", [o](const std::string &, const std::string &) {
         o->version = true;
         return std::string();
       }});
  return tools::OptionTable(std::move(options), 14);
}

}  // namespace

const char *ToolName(Tool tool) { return tool == Tool::kHpmcount ? "hpmcount" : "hpmstat"; }

std::string ParseHpmOptions(Tool tool, const std::vector<std::string> &args, HpmOptions *options) {
  HpmOptions o;
  o.tool = tool;
  // hpmstat's operands are numbers, so options may come after them as well (a script writes
  // "hpmstat -U 500 -g pm_basic"); hpmcount's end at the command, which owns what follows.
  std::vector<std::string> operands, after;
  const tools::OptionError error =
      Table(tool, &o).Parse(args, &after,
                            tool == Tool::kHpmcount ? tools::OptionTable::Operands::kEndOptions
                                                    : tools::OptionTable::Operands::kAnywhere,
                            [&operands](const std::string &operand, const std::string &) {
                              operands.push_back(operand);
                              return std::string();
                            });
  if (error.kind == tools::OptionError::kMissingValue) return error.spelled + " needs a value";
  if (error) return error.message;
  std::vector<std::string> rest = operands;
  rest.insert(rest.end(), after.begin(), after.end());
  if (o.help || o.version) {
    *options = o;
    return "";
  }
  if (tool == Tool::kHpmcount) {
    if (rest.empty()) return "no command to count (hpmcount [options] command [args])";
    o.command = rest;
  } else {
    if (rest.size() > 2) return "too many operands: hpmstat takes at most interval and count";
    const long most = o.microseconds ? kMaxIntervalUs : kMaxInterval;
    if (!rest.empty() && !ParseNumber(rest[0], 1, most, &o.interval)) {
      return "interval '" + rest[0] + "' is not a whole number from 1 to " + std::to_string(most) +
             (o.microseconds ? " (microseconds with -U)" : " (seconds)");
    }
    if (o.microseconds && rest.empty()) o.interval = 1000000;
    if (rest.size() == 2 && !ParseNumber(rest[1], 1, kMaxCount, &o.count)) {
      return "count '" + rest[1] + "' is not a whole number from 1 to " + std::to_string(kMaxCount);
    }
    // -U: the iteration count is infinity (until interrupted), whatever was given.
    if (o.microseconds) o.count = 0;
  }
  int selections = !o.groups.empty() + !o.sets.empty() + !o.events.empty();
  if (selections > 1) return "choose the events one way: -g, -s or -e";
  *options = o;
  return "";
}

std::string HpmUsage(Tool tool) {
  HpmOptions unused;
  const std::string options = Table(tool, &unused).Help();
  if (tool == Tool::kHpmcount) {
    return R"(Usage: hpmcount [-a] [-b time_base] [-d] [-D metrics] [-g event_groups] [-H] [-k]
                [-m metrics_groups] [-o file] [-s set] [-e events] [-x] command [args]
       hpmcount -h

Runs command and reports its wall clock time, its resource usage (getrusage), the counts of
the chosen events and the derived metrics of their group, in AIX's layout.

)" + options +
           R"(
Environment: HPM_EVENT_GROUP, HPM_EVENT_SET, HPM_PMD_GROUP, and a libHPM_events file in the
working directory choose the events when no option does. More in hpmcount(1) and
)" PMAPI_DOC_DIR R"(/tools.md ("Coming from AIX").
)";
  }
  return R"(Usage: hpmstat [-b time_base] [-d] [-D metrics] [-g event_groups] [-H] [-k] [-u]
               [-m metrics_groups] [-o file] [-r] [-s set] [-e events] [-T] [-U] [-x]
               [-@ ALL] [interval [count]]
       hpmstat -h

Counts the whole machine (root only) for count intervals of interval seconds (default 1 1)
and reports each interval's counts and derived metrics in AIX's layout.

)" + options;
}

}  // namespace aix
