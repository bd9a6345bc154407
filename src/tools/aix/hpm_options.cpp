#include "hpm_options.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

namespace aix {
namespace {

// A day in seconds (in microseconds with -U) and a million iterations: far beyond any use,
// and small enough that interval * count cannot overflow.
constexpr long kMaxInterval = 86400;
constexpr long kMaxIntervalUs = 86400L * 1000000;
constexpr long kMaxCount = 1000000;

// The letters each tool takes, and whether each takes a value.
// getopt's notation: a letter followed by ':' takes a value.
const char *Flags(Tool tool) {
  return tool == Tool::kHpmcount ? "ab:dD:e:g:Hhkm:no:s:x" : "b:dD:e:g:Hhkm:O:o:rs:TUux@:";
}

bool TakesValue(Tool tool, char flag, bool *known) {
  const char *flags = Flags(tool);
  for (const char *p = flags; *p; ++p) {
    if (*p == ':') continue;
    if (*p == flag) {
      *known = true;
      return p[1] == ':';
    }
  }
  *known = false;
  return false;
}

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

}  // namespace

const char *ToolName(Tool tool) { return tool == Tool::kHpmcount ? "hpmcount" : "hpmstat"; }

std::string ParseHpmOptions(Tool tool, const std::vector<std::string> &args, HpmOptions *options) {
  HpmOptions o;
  o.tool = tool;
  // hpmstat's operands are numbers, so options may come after them as well (a script writes
  // "hpmstat -U 500 -g pm_basic"); hpmcount's end at the command, which owns what follows.
  std::vector<std::string> operands;
  size_t i = 0;
  for (; i < args.size(); ++i) {
    const std::string &arg = args[i];
    if (arg == "--") {
      ++i;
      break;
    }
    if (arg.size() < 2 || arg[0] != '-') {
      if (tool == Tool::kHpmcount) break;
      operands.push_back(arg);
      continue;
    }
    if (arg == "--help") {
      o.help = true;
      continue;
    }
    if (arg[1] == '-') return "unknown option '" + arg + "'";
    for (size_t k = 1; k < arg.size(); ++k) {
      const char flag = arg[k];
      bool known = false;
      const bool takes = TakesValue(tool, flag, &known);
      if (!known) return std::string("unknown option '-") + flag + "'";
      std::string value;
      if (takes) {
        if (k + 1 < arg.size()) {
          value = arg.substr(k + 1);
        } else if (i + 1 < args.size()) {
          value = args[++i];
        } else {
          return std::string("-") + flag + " needs a value";
        }
        k = arg.size();
      }
      const std::string error = Apply(flag, value, &o);
      if (!error.empty()) return error;
    }
  }
  std::vector<std::string> rest = operands;
  rest.insert(rest.end(), args.begin() + static_cast<long>(i), args.end());
  if (o.help) {
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
  if (tool == Tool::kHpmcount) {
    return R"(Usage: hpmcount [-a] [-b time_base] [-d] [-D metrics] [-g event_groups] [-H] [-k]
                [-m metrics_groups] [-o file] [-s set] [-e events] [-x] command [args]
       hpmcount -h

Runs command and reports its wall clock time, its resource usage (getrusage), the counts of
the chosen events and the derived metrics of their group, in AIX's layout.

  -g groups   event groups by name or number (pmlist -g -1); a comma list multiplexes them
  -s sets     set numbers: on Linux a set is a group, so the same as -g; 0 is every group
  -e events   event names (pmlist), a libpmapi addition
  -k          count kernel mode too (the default is user mode only)
  -H          count hypervisor mode too (not separable on Linux: said in the output)
  -D metrics  only these derived metrics;  -m groups: the metrics of these groups
  -d          per-set details (counting time of each multiplexed group)
  -x          show each derived metric's formula
  -o file     write to file_<MP_CHILD or 0000>.<pid> instead of standard output
  -n          no report on standard output (the HPM Toolkit's flag; -o still writes)
  -b base     time, purr or spurr (the last two are the wall clock on Linux)
  -a          one report over a parallel job's tasks: HPM_LOG_DIR/hpm_log.<job>
  -h          this text

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

  -g, -s, -e, -D, -m, -d, -x, -b, -H   as for hpmcount(1)
  -u          user mode only;  -k: kernel mode only (default: both)
  -o file     write to file instead of standard output
  -T          prefix each report with its time stamp (seconds.microseconds)
  -U          interval in microseconds, count until interrupted, no derived metrics
  -r          runlatch: not on Linux (said in the output)
  -@ ALL      every workload partition: the whole machine on Linux
  -h          this text
)";
}

}  // namespace aix
