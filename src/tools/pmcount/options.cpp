// SPDX-License-Identifier: MIT
#include "options.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include <algorithm>

#include "option_table.h"

namespace pmcount {
namespace {

// perf stat refuses intervals under 10 ms: below that the reads themselves dominate.
constexpr long kMinIntervalMs = 10;
constexpr long kMaxIntervalMs = 86400L * 1000;
constexpr int kMaxRepeat = 100;  // perf stat's limit too
constexpr double kMaxDurationS = 365.0 * 86400;
constexpr int kMaxCpu = 65535;
// -T: a slice is whole milliseconds (the pmapi unit); a day is far beyond any use.
constexpr long kMaxSliceMs = 86400L * 1000;  // the kernel's CPU lists never go beyond this here

enum class Id {
  kEvent,
  kGroup,
  kMetrics,
  kMultiplex,
  kCpu,
  kPerCpu,
  kPerCore,
  kPerSocket,
  kInterval,
  kRepeat,
  kTime,
  kPid,
  kTid,
  kIntervalCount,
  kDelay,
  kSeparator,
  kJson,
  kPerfJson,
  kOutput,
  kTimeline
};

std::string Quoted(const std::string &text) { return "'" + text + "'"; }

// A whole decimal number in [min, max], nothing else (no sign, blanks or suffix).
bool ParseWhole(const std::string &text, long min, long max, long *out) {
  if (text.empty() || text.size() > 18) return false;
  long value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
    value = value * 10 + (c - '0');
  }
  if (value < min || value > max) return false;
  *out = value;
  return true;
}

// "1234" or "1234,1240": process or thread ids, positive, in the kernel's range.
bool ParseIdList(const std::string &text, std::vector<int> *ids) {
  size_t start = 0;
  while (start <= text.size()) {
    const size_t comma = std::min(text.find(',', start), text.size());
    long id = 0;
    if (!ParseWhole(text.substr(start, comma - start), 1, 4194304, &id)) return false;
    ids->push_back(static_cast<int>(id));
    start = comma + 1;
  }
  return !ids->empty();
}

bool ParseSeconds(const std::string &text, double *out) {
  if (text.empty() || text.find_first_not_of("0123456789.") != std::string::npos) return false;
  errno = 0;
  char *end = nullptr;
  const double value = strtod(text.c_str(), &end);
  if (errno != 0 || *end != '\0' || !isfinite(value) || value <= 0 || value > kMaxDurationS) {
    return false;
  }
  *out = value;
  return true;
}

const char *AggregationOption(Aggregation aggregation) {
  switch (aggregation) {
    case Aggregation::kPerCpu:
      return "-A";
    case Aggregation::kPerCore:
      return "--per-core";
    case Aggregation::kPerSocket:
      return "--per-socket";
    case Aggregation::kTotal:
    case Aggregation::kPerThread:
      break;
  }
  return "";
}

// Applies one option. Returns "" or what is wrong.
std::string Apply(Id id, const std::string &value, const std::string &spelled, Options *o) {
  switch (id) {
    case Id::kEvent:
      if (value.empty()) return "option " + spelled + " needs an event name";
      o->event_lists.push_back(value);
      o->sets.push_back(SetArgument{false, value});
      return "";
    case Id::kGroup:
      if (value.empty()) return "option " + spelled + " needs a group name or id";
      if (o->group.empty()) o->group = value;
      o->sets.push_back(SetArgument{true, value});
      return "";
    case Id::kMetrics: {
      if (value.empty()) return "option " + spelled + " needs a metric or group name";
      size_t start = 0;
      while (start <= value.size()) {
        size_t end = value.find(',', start);
        if (end == std::string::npos) end = value.size();
        const std::string name = value.substr(start, end - start);
        if (name.empty()) {
          return "an empty name in " + spelled + " " + Quoted(value) +
                 " (two commas, or a comma at an end?)";
        }
        o->metrics.push_back(name);
        start = end + 1;
      }
      return "";
    }
    case Id::kMultiplex:
      if (!ParseWhole(value, 1, kMaxSliceMs, &o->multiplex_ms)) {
        return "bad slice " + Quoted(value) + " for " + spelled +
               ": give whole milliseconds, at least 1 (each event set counts for one slice in "
               "turn)";
      }
      return "";
    case Id::kCpu: {
      std::string error = ParseCpuList(value, &o->cpus);
      if (!error.empty()) return "bad CPU list " + Quoted(value) + " for " + spelled + ": " + error;
      o->cpus_given = true;
      return "";
    }
    case Id::kPerCpu:
    case Id::kPerCore:
    case Id::kPerSocket: {
      const Aggregation wanted = id == Id::kPerCpu    ? Aggregation::kPerCpu
                                 : id == Id::kPerCore ? Aggregation::kPerCore
                                                      : Aggregation::kPerSocket;
      if (o->aggregation != Aggregation::kTotal && o->aggregation != wanted) {
        return std::string(AggregationOption(o->aggregation)) + " and " + spelled +
               " cannot be combined: choose one way to split the counts";
      }
      o->aggregation = wanted;
      return "";
    }
    case Id::kInterval:
      if (!ParseWhole(value, kMinIntervalMs, kMaxIntervalMs, &o->interval_ms)) {
        return "bad interval " + Quoted(value) + " for " + spelled +
               ": give whole milliseconds, at least " + std::to_string(kMinIntervalMs);
      }
      return "";
    case Id::kRepeat: {
      long runs = 0;
      if (!ParseWhole(value, 1, kMaxRepeat, &runs)) {
        return "bad repeat count " + Quoted(value) + " for " + spelled + ": give 1 to " +
               std::to_string(kMaxRepeat);
      }
      o->repeat = static_cast<int>(runs);
      return "";
    }
    case Id::kTime:
      if (!ParseSeconds(value, &o->duration_s)) {
        return "bad duration " + Quoted(value) + " for " + spelled +
               ": give seconds greater than 0, such as 2 or 0.5";
      }
      return "";
    case Id::kPid:
    case Id::kTid: {
      std::vector<int> ids;
      if (!ParseIdList(value, &ids)) {
        if (id == Id::kTid && ParseSeconds(value, &o->duration_s)) {
          return spelled + " " + value +
                 ": -t takes thread ids now, as in perf stat; for a duration in seconds, use "
                 "--duration " +
                 value;
        }
        return "bad " + std::string(id == Id::kPid ? "process" : "thread") + " id list " +
               Quoted(value) + " for " + spelled + ": give ids such as 1234 or 1234,1240";
      }
      std::vector<int> &list = id == Id::kPid ? o->pids : o->tids;
      list.insert(list.end(), ids.begin(), ids.end());
      return "";
    }
    case Id::kIntervalCount:
      if (!ParseWhole(value, 1, 1000000000L, &o->interval_count)) {
        return "bad interval count " + Quoted(value) + " for " + spelled +
               ": give how many -I intervals to print, at least 1";
      }
      return "";
    case Id::kDelay:
      if (!ParseWhole(value, 0, kMaxIntervalMs, &o->delay_ms)) {
        return "bad delay " + Quoted(value) + " for " + spelled +
               ": give whole milliseconds, 0 or more";
      }
      return "";
    case Id::kSeparator:
      if (value.empty()) return "option " + spelled + " needs a separator, such as , or ;";
      o->format = Format::kCsv;
      o->separator = value;
      return "";
    case Id::kJson:
      o->format = Format::kJson;
      return "";
    case Id::kPerfJson:
      o->format = Format::kPerfJson;
      return "";
    case Id::kOutput:
      if (value.empty()) return "option " + spelled + " needs a file name";
      o->output_path = value;
      return "";
    case Id::kTimeline:
      if (value.empty()) return "option " + spelled + " needs a file name, such as counts.html";
      o->timeline_path = value;
      return "";
  }
  return "internal error: unhandled option " + spelled;
}

// An output format option as the user spelled it, once per format.
struct FormatSeen {
  Id id;
  std::string spelled;
};

// Remembers an output format option, once per format.
void NoteFormat(Id id, const std::string &spelled, std::vector<FormatSeen> *formats) {
  if (id != Id::kSeparator && id != Id::kJson && id != Id::kPerfJson) return;
  for (const FormatSeen &seen : *formats) {
    if (seen.id == id) return;
  }
  formats->push_back({id, spelled});
}

// The rules between options, checked once everything is read.
std::string Validate(const Options &o, const std::vector<FormatSeen> &formats) {
  if (formats.size() > 1) {
    return formats[0].spelled + " and " + formats[1].spelled +
           " cannot be combined: choose one output format";
  }
  size_t groups = 0;
  for (const SetArgument &set : o.sets) groups += set.is_group ? 1 : 0;
  if (o.multiplex_ms > 0) {
    if (o.sets.size() < 2) {
      return "-T multiplexes several event sets: give at least two -e lists or -g groups "
             "(each one is a set), " +
             std::to_string(o.sets.size()) + " given";
    }
    if (o.sets.size() > static_cast<size_t>(kMaxMultiplexSets)) {
      return std::to_string(o.sets.size()) + " event sets given to -T; at most " +
             std::to_string(kMaxMultiplexSets) + " can be multiplexed";
    }
  } else {
    if (groups > 1) {
      return "only one -g group can be counted at a time (add -T MS to multiplex several)";
    }
    if (!o.event_lists.empty() && groups > 0) {
      return "-e and -g cannot be combined: count either events or one group (or multiplex "
             "them as sets with -T MS)";
    }
  }
  if (!o.metrics.empty() && (!o.sets.empty() || o.multiplex_ms > 0)) {
    return "-M cannot be combined with -e, -g or -T: -M NAME counts the group that defines the "
           "metric (or the group NAME) and shows its metrics";
  }
  if (o.system_wide && !o.tids.empty()) {
    return "-t and -a cannot be combined: -t takes thread ids now, as in perf stat; for a "
           "duration in seconds, use --duration";
  }
  if (o.system_wide && o.attached()) {
    return "-p and -a cannot be combined: count the processes or the whole machine";
  }
  if (o.command.empty() && !o.system_wide && !o.attached()) {
    return "no command to count: give one after --, -p PID or -t TID to count running ones, or "
           "-a to count the whole machine";
  }
  if (!o.system_wide) {
    if (o.cpus_given) return "-C selects CPUs for system-wide counting: add -a";
    if (o.aggregation != Aggregation::kTotal) {
      return std::string(AggregationOption(o.aggregation)) +
             " splits system-wide counts by CPU: add -a (a command's counts follow its threads, "
             "not CPUs)";
    }
    if (o.stats) return "--stats summarizes counts across CPUs: add -a";
  }
  if (o.duration_s > 0 && !o.command.empty()) {
    return "--duration counts for a fixed time without a command: give either --duration or a "
           "command";
  }
  if (o.duration_s > 0 && !o.system_wide && !o.attached()) {
    return "--duration needs -a, -p or -t: a command is counted until it exits";
  }
  if (o.per_thread && !o.attached()) {
    return "--per-thread splits the counts of -p or -t targets by thread: add -p PID or -t TID";
  }
  if (!o.timeline_path.empty() && o.interval_ms == 0) {
    return "--timeline draws the counts of -I intervals: add -I MS";
  }
  if (o.interval_count > 0 && o.interval_ms == 0) {
    return "--interval-count counts -I intervals: add -I MS";
  }
  if (o.repeat > 1 && o.command.empty()) return "-r repeats a command: give one after --";
  if (o.repeat > 1 && o.attached()) {
    return "-r and -p/-t cannot be combined: a running process is counted once";
  }
  if (o.repeat > 1 && o.multiplex_ms > 0) {
    return "-r and -T cannot be combined: a multiplexed estimate is printed for one run";
  }
  if (o.repeat > 1 && o.interval_ms > 0) {
    return "-r and -I cannot be combined: repeated runs print one summary each";
  }
  return "";
}

// pmcount's options, each one row: --help is generated from the same rows (tools::OptionTable).
tools::OptionTable Table(Options *o, std::vector<FormatSeen> *formats) {
  auto row = [o, formats](const char *long_names, char short_name, const char *argument,
                          const char *help, Id id) {
    return tools::Option{long_names, short_name, argument, help,
                         [o, formats, id](const std::string &value, const std::string &spelled) {
                           NoteFormat(id, spelled, formats);
                           return Apply(id, value, spelled, o);
                         }};
  };
  auto flag = [](const char *long_names, char short_name, const char *help, bool *field) {
    return tools::Option{long_names, short_name, nullptr, help,
                         [field](const std::string &, const std::string &) {
                           *field = true;
                           return std::string();
                         }};
  };
  return tools::OptionTable({
      tools::Text("Events:"),
      row("event", 'e', "LIST",
          "events to count, comma-separated: AIX mnemonics (PM_CYC), kernel\n"
          "software events (task-clock), libpfm4 strings (INST_RETIRED:ANY_P:u),\n"
          "sysfs PMU events (msr/tsc), tracepoints (syscalls:sys_enter_write),\n"
          "or the catalog ids pmlist prints; a :u or :k suffix selects the mode\n"
          "of that event (page-faults:u,page-faults:k counts both).\n"
          "A wildcard ('syscalls:sys_enter_*', quoted) is every countable event\n"
          "it matches, as `pmlist PATTERN` lists them. Any number of events:\n"
          "software events and tracepoints each count on their own, exactly;\n"
          "hardware events take turns only when they do not fit the counters\n"
          "(counts then scaled, their share (xx.xx%) beside them). Repeat -e\n"
          "to add more. `pmlist` lists them all.",
          Id::kEvent),
      row("group", 'g', "NAME|ID",
          "count an event group and its derived metrics (`pmlist -g`)\n"
          "Default: task-clock, context-switches, cpu-migrations and\n"
          "page-faults, plus cycles, instructions, branches and branch-misses\n"
          "when the machine has a hardware PMU.",
          Id::kGroup),
      row("metrics", 'M', "NAME[,NAME]",
          "count what derived metrics need and show them, as perf stat -M:\n"
          "a metric (CPUs_utilized) or a group (pm_sw_basic: all its\n"
          "metrics); the names must be of one group (`pmlist -g` lists them)",
          Id::kMetrics),
      row("multiplex", 'T', "MS",
          "multiplex: each -e list and each -g group is one event set (2 to 64,\n"
          "numbered from 1); the sets count in turn, MS milliseconds each; the\n"
          "count printed is the estimate (raw count x total time / the set's\n"
          "time), with the set, its share and the raw count beside it",
          Id::kMultiplex),
      flag("user", 'u', "count user mode", &o->user),
      flag("kernel", 'k', "count kernel mode (-u -k: both, the default where allowed)", &o->kernel),
      tools::Text(""),
      tools::Text("Targets:"),
      flag("all-cpus", 'a', "count every CPU (needs root or CAP_PERFMON)", &o->system_wide),
      row("cpu", 'C', "LIST", "with -a: report these CPUs only, e.g. 0-3,6", Id::kCpu),
      row("pid", 'p', "PID[,PID]",
          "count these running processes, every thread (until ^C, --duration,\n"
          "they exit, or a command given after -- exits)",
          Id::kPid),
      row("tid", 't', "TID[,TID]",
          "count these running threads, as perf stat -t (before, -t was\n"
          "--duration)",
          Id::kTid),
      flag("per-thread", 0, "with -p or -t: one line per thread", &o->per_thread),
      row("duration", 0, "SECONDS",
          "with -a, -p or -t and no command: count for this long (default: until\n"
          "^C); --time is the same",
          Id::kTime),
      row("time", 0, "SECONDS", nullptr, Id::kTime),  // --duration's name before -t became perf's
      row("delay", 'D', "MS", "start counting MS milliseconds after the command starts",
          Id::kDelay),
      tools::Text(""),
      tools::Text("Splitting (with -a):"),
      row("no-aggr|per-cpu", 'A', nullptr, "one line per CPU", Id::kPerCpu),
      row("per-core", 0, nullptr, "one line per core", Id::kPerCore),
      row("per-socket", 0, nullptr, "one line per socket", Id::kPerSocket),
      flag("stats", 0, "sum, min, max and average across the CPUs", &o->stats),
      tools::Text(""),
      tools::Text("Time:"),
      row("interval", 'I', "MS", "print the counts of each interval of MS milliseconds (>= 10)",
          Id::kInterval),
      row("interval-count", 0, "N", "stop after N intervals (a command still running gets SIGTERM)",
          Id::kIntervalCount),
      row("timeline", 0, "FILE",
          "with -I: also a page charting each event's count per interval\n"
          "(self-contained HTML, viewable offline)",
          Id::kTimeline),
      row("repeat", 'r', "N", "run the command N times; print means and their relative spread",
          Id::kRepeat),
      tools::Text(""),
      tools::Text("Output (to stderr unless -o):"),
      row("field-separator", 'x', "SEP",
          "perf stat's CSV, field for field (clocks in msec, a metric\n"
          "column on each event's line)",
          Id::kSeparator),
      row("json-output", 'j', nullptr, "perf stat -j's JSON, one object per event and line",
          Id::kPerfJson),
      row("json", 0, nullptr,
          "pmcount's own JSON: one object per interval and for the totals, with\n"
          "the command, notes and sets (schema: pmcount-json.schema.json)",
          Id::kJson),
      flag("summary", 0, "with -I and -x or -j: the totals after the intervals too", &o->summary),
      row("output", 'o', "FILE",
          "write the counts to FILE (- for standard output); %r the MPI rank,\n"
          "%h the host, %p the pid; .csv or .json (pmcount's own) choose the\n"
          "format",
          Id::kOutput),
      flag("help", 'h', "this text", &o->help),
      flag("version", 0, "the version", &o->version),
  });
}

}  // namespace

std::string ParseCpuList(const std::string &text, std::vector<int> *cpus) {
  if (text.empty()) return "the list is empty";
  std::vector<int> out;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t comma = std::min(text.find(',', start), text.size());
    const std::string item = text.substr(start, comma - start);
    if (item.empty()) return "an empty item (two commas, or a comma at an end)";
    const size_t dash = item.find('-');
    long first = 0, last = 0;
    if (!ParseWhole(item.substr(0, dash), 0, kMaxCpu, &first)) {
      return Quoted(item) + " is not a CPU number or a range such as 0-3";
    }
    last = first;
    if (dash != std::string::npos && !ParseWhole(item.substr(dash + 1), 0, kMaxCpu, &last)) {
      return Quoted(item) + " is not a CPU number or a range such as 0-3";
    }
    if (last < first) return "the range " + Quoted(item) + " runs backwards";
    for (long cpu = first; cpu <= last; ++cpu) out.push_back(static_cast<int>(cpu));
    start = comma + 1;
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  *cpus = std::move(out);
  return "";
}

std::string FormatCpuList(const std::vector<int> &cpus) {
  std::string text;
  for (size_t i = 0; i < cpus.size();) {
    size_t j = i;
    while (j + 1 < cpus.size() && cpus[j + 1] == cpus[j] + 1) ++j;
    if (!text.empty()) text += ',';
    text += std::to_string(cpus[i]);
    if (j > i) text += "-" + std::to_string(cpus[j]);
    i = j + 1;
  }
  return text;
}

std::string ParseOptions(const std::vector<std::string> &args, Options *options) {
  Options o;
  std::vector<FormatSeen> formats;  // the output formats asked for, as spelled
  const tools::OptionError error = Table(&o, &formats).Parse(args, &o.command);
  if (error) return error.message;
  if (!o.help && !o.version) {
    std::string invalid = Validate(o, formats);
    if (!invalid.empty()) return invalid;
  }
  *options = std::move(o);
  return "";
}

std::string UsageText() {
  Options unused;
  std::vector<FormatSeen> formats;
  return R"(Usage: pmcount [options] [--] command [args...]
       pmcount -a [-C cpus] [options] [-- command [args...] | --duration seconds]
       pmcount -p pid[,pid] | -t tid[,tid] [options] [-- command [args...] | --duration s]
       pmcount --merge FILE.csv...   the summary across MPI ranks

Counts hardware and software events, through the AIX pmapi calls, for a command and
everything it starts (not pmcount itself), or for the whole machine with -a.

)" + Table(&unused, &formats).Help() +
         R"(
Exit status: the command's (128+N when signal N killed it), even when the counts could not
be written afterwards (a message says so); 127 if the command was not found, 126 if it could
not be run; 2 for a usage error; 125 when counting failed or the -o file cannot be opened
(the command is not run).
SIGINT, SIGTERM and SIGHUP are passed to the command, and the counts so far are printed.
More in pmcount(1), )" PMAPI_DOC_DIR R"(/tools.md and, for MPI runs, mpi.md.
)";
}

}  // namespace pmcount
