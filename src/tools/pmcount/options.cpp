#include "options.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include <algorithm>

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
  kMultiplex,
  kUser,
  kKernel,
  kAllCpus,
  kCpu,
  kPerCpu,
  kPerCore,
  kPerSocket,
  kStats,
  kInterval,
  kRepeat,
  kTime,
  kPid,
  kTid,
  kPerThread,
  kIntervalCount,
  kDelay,
  kSeparator,
  kJson,
  kPerfJson,
  kSummary,
  kOutput,
  kTimeline,
  kHelp,
  kVersion
};

struct Spec {
  char short_name;  // 0: none
  const char *long_name;
  bool takes_value;
  Id id;
};

constexpr Spec kSpecs[] = {
    {'e', "event", true, Id::kEvent},
    {'g', "group", true, Id::kGroup},
    {'T', "multiplex", true, Id::kMultiplex},
    {'u', "user", false, Id::kUser},
    {'k', "kernel", false, Id::kKernel},
    {'a', "all-cpus", false, Id::kAllCpus},
    {'C', "cpu", true, Id::kCpu},
    {'A', "no-aggr", false, Id::kPerCpu},
    {0, "per-cpu", false, Id::kPerCpu},
    {0, "per-core", false, Id::kPerCore},
    {0, "per-socket", false, Id::kPerSocket},
    {0, "stats", false, Id::kStats},
    {'I', "interval", true, Id::kInterval},
    {'r', "repeat", true, Id::kRepeat},
    {0, "duration", true, Id::kTime},
    {0, "time", true, Id::kTime},  // the name of --duration before -t became perf's
    {'p', "pid", true, Id::kPid},
    {'t', "tid", true, Id::kTid},
    {0, "per-thread", false, Id::kPerThread},
    {0, "interval-count", true, Id::kIntervalCount},
    {'D', "delay", true, Id::kDelay},
    {'x', "field-separator", true, Id::kSeparator},
    {0, "json", false, Id::kJson},
    {'j', "json-output", false, Id::kPerfJson},
    {0, "summary", false, Id::kSummary},
    {'o', "output", true, Id::kOutput},
    {0, "timeline", true, Id::kTimeline},
    {'h', "help", false, Id::kHelp},
    {0, "version", false, Id::kVersion},
};

const Spec *FindShort(char c) {
  for (const Spec &spec : kSpecs) {
    if (spec.short_name == c) return &spec;
  }
  return nullptr;
}

const Spec *FindLong(const std::string &name) {
  for (const Spec &spec : kSpecs) {
    if (name == spec.long_name) return &spec;
  }
  return nullptr;
}

// The spec of an option as spelled ("-x", "--json").
const Spec *FindSpelled(const std::string &spelled) {
  return spelled.size() == 2 ? FindShort(spelled[1]) : FindLong(spelled.substr(2));
}

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
std::string Apply(const Spec &spec, const std::string &value, const std::string &spelled,
                  Options *o) {
  switch (spec.id) {
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
    case Id::kMultiplex:
      if (!ParseWhole(value, 1, kMaxSliceMs, &o->multiplex_ms)) {
        return "bad slice " + Quoted(value) + " for " + spelled +
               ": give whole milliseconds, at least 1 (each event set counts for one slice in "
               "turn)";
      }
      return "";
    case Id::kUser:
      o->user = true;
      return "";
    case Id::kKernel:
      o->kernel = true;
      return "";
    case Id::kAllCpus:
      o->system_wide = true;
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
      const Aggregation wanted = spec.id == Id::kPerCpu    ? Aggregation::kPerCpu
                                 : spec.id == Id::kPerCore ? Aggregation::kPerCore
                                                           : Aggregation::kPerSocket;
      if (o->aggregation != Aggregation::kTotal && o->aggregation != wanted) {
        return std::string(AggregationOption(o->aggregation)) + " and " + spelled +
               " cannot be combined: choose one way to split the counts";
      }
      o->aggregation = wanted;
      return "";
    }
    case Id::kStats:
      o->stats = true;
      return "";
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
        if (spec.id == Id::kTid && ParseSeconds(value, &o->duration_s)) {
          return spelled + " " + value +
                 ": -t takes thread ids now, as in perf stat; for a duration in seconds, use "
                 "--duration " +
                 value;
        }
        return "bad " + std::string(spec.id == Id::kPid ? "process" : "thread") + " id list " +
               Quoted(value) + " for " + spelled + ": give ids such as 1234 or 1234,1240";
      }
      std::vector<int> &list = spec.id == Id::kPid ? o->pids : o->tids;
      list.insert(list.end(), ids.begin(), ids.end());
      return "";
    }
    case Id::kPerThread:
      o->per_thread = true;
      return "";
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
    case Id::kSummary:
      o->summary = true;
      return "";
    case Id::kOutput:
      if (value.empty()) return "option " + spelled + " needs a file name";
      o->output_path = value;
      return "";
    case Id::kTimeline:
      if (value.empty()) return "option " + spelled + " needs a file name, such as counts.html";
      o->timeline_path = value;
      return "";
    case Id::kHelp:
      o->help = true;
      return "";
    case Id::kVersion:
      o->version = true;
      return "";
  }
  return "internal error: unhandled option " + spelled;
}

// Remembers an output format option, once per format, as the user spelled it.
void NoteFormat(const Spec &spec, const std::string &spelled, std::vector<std::string> *formats) {
  if (spec.id != Id::kSeparator && spec.id != Id::kJson && spec.id != Id::kPerfJson) return;
  for (const std::string &seen : *formats) {
    if (FindSpelled(seen)->id == spec.id) return;
  }
  formats->push_back(spelled);
}

// The rules between options, checked once everything is read.
std::string Validate(const Options &o, const std::vector<std::string> &formats) {
  if (formats.size() > 1) {
    return formats[0] + " and " + formats[1] + " cannot be combined: choose one output format";
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
  std::vector<std::string> formats;  // the output formats asked for, as spelled
  size_t i = 0;
  for (; i < args.size(); ++i) {
    const std::string &arg = args[i];
    if (arg == "--") {
      ++i;
      break;
    }
    if (arg.size() < 2 || arg[0] != '-') break;  // the command starts here
    if (arg[1] == '-') {
      const size_t equals = arg.find('=');
      const std::string name =
          arg.substr(2, equals == std::string::npos ? std::string::npos : equals - 2);
      const Spec *spec = FindLong(name);
      if (!spec) return "unknown option " + Quoted(arg);
      std::string value;
      if (spec->takes_value) {
        if (equals != std::string::npos) {
          value = arg.substr(equals + 1);
        } else if (i + 1 < args.size()) {
          value = args[++i];
        } else {
          return "option --" + name + " needs a value";
        }
      } else if (equals != std::string::npos) {
        return "option --" + name + " takes no value";
      }
      NoteFormat(*spec, "--" + name, &formats);
      std::string error = Apply(*spec, value, "--" + name, &o);
      if (!error.empty()) return error;
      continue;
    }
    // A bundle of short options: "-uk", "-etask-clock", "-e task-clock".
    for (size_t k = 1; k < arg.size(); ++k) {
      const Spec *spec = FindShort(arg[k]);
      if (!spec) return "unknown option " + Quoted(std::string("-") + arg[k]);
      const std::string spelled = std::string("-") + arg[k];
      std::string value;
      if (spec->takes_value) {
        if (k + 1 < arg.size()) {
          value = arg.substr(k + 1);
        } else if (i + 1 < args.size()) {
          value = args[++i];
        } else {
          return "option " + spelled + " needs a value";
        }
        k = arg.size();  // the value took the rest of this argument
      }
      NoteFormat(*spec, spelled, &formats);
      std::string error = Apply(*spec, value, spelled, &o);
      if (!error.empty()) return error;
    }
  }
  o.command.assign(args.begin() + static_cast<std::ptrdiff_t>(i), args.end());
  if (!o.help && !o.version) {
    std::string error = Validate(o, formats);
    if (!error.empty()) return error;
  }
  *options = std::move(o);
  return "";
}

std::string UsageText() {
  return R"(Usage: pmcount [options] [--] command [args...]
       pmcount -a [-C cpus] [options] [-- command [args...] | --duration seconds]
       pmcount -p pid[,pid] | -t tid[,tid] [options] [-- command [args...] | --duration s]
       pmcount --merge FILE.csv...   the summary across MPI ranks

Counts hardware and software events, through the AIX pmapi calls, for a command and
everything it starts (not pmcount itself), or for the whole machine with -a.

Events:
  -e, --event LIST        events to count, comma-separated: AIX mnemonics (PM_CYC), kernel
                          software events (task-clock), libpfm4 strings (INST_RETIRED:ANY_P:u),
                          sysfs PMU events (msr/tsc), tracepoints (syscalls:sys_enter_write),
                          or the catalog ids pmlist prints; a :u or :k suffix selects the mode.
                          A wildcard ('syscalls:sys_enter_*', quoted) is every countable event
                          it matches, as `pmlist PATTERN` lists them (at most 512).
                          Past 8 events (one pmapi program) they take turns, as perf
                          multiplexes: counts are then estimates, their share (xx.xx%)
                          beside them. Repeat -e to add more. `pmlist` lists them all.
  -g, --group NAME|ID     count an event group and its derived metrics (`pmlist -g`)
                          Default: task-clock, context-switches, cpu-migrations and
                          page-faults, plus cycles, instructions, branches and branch-misses
                          when the machine has a hardware PMU.
  -T, --multiplex MS      multiplex: each -e list and each -g group is one event set (2 to 64,
                          numbered from 1); the sets count in turn, MS milliseconds each; the
                          count printed is the estimate (raw count x total time / the set's
                          time), with the set, its share and the raw count beside it
  -u, --user              count user mode
  -k, --kernel            count kernel mode (-u -k: both, the default where allowed)

Targets:
  -a, --all-cpus          count every CPU (needs root or CAP_PERFMON)
  -C, --cpu LIST          with -a: report these CPUs only, e.g. 0-3,6
  -p, --pid PID[,PID]     count these running processes, every thread (until ^C, --duration,
                          they exit, or a command given after -- exits)
  -t, --tid TID[,TID]     count these running threads, as perf stat -t (before, -t was
                          --duration)
      --per-thread        with -p or -t: one line per thread
      --duration SECONDS  with -a, -p or -t and no command: count for this long (default: until
                          ^C); --time is the same
  -D, --delay MS          start counting MS milliseconds after the command starts

Splitting (with -a):
  -A, --no-aggr, --per-cpu  one line per CPU
      --per-core          one line per core
      --per-socket        one line per socket
      --stats             sum, min, max and average across the CPUs

Time:
  -I, --interval MS       print the counts of each interval of MS milliseconds (>= 10)
      --interval-count N  stop after N intervals (a command still running gets SIGTERM)
      --timeline FILE     with -I: also a page charting each event's count per interval
                          (self-contained HTML, viewable offline)
  -r, --repeat N          run the command N times; print means and their relative spread

Output (to stderr unless -o):
  -x, --field-separator SEP  perf stat's CSV, field for field (clocks in msec, a metric
                          column on each event's line)
  -j, --json-output       perf stat -j's JSON, one object per event and line
      --json              pmcount's own JSON: one object per interval and for the totals, with
                          the command, notes and sets (schema: pmcount-json.schema.json)
      --summary           with -I and -x or -j: the totals after the intervals too
  -o, --output FILE       write the counts to FILE (- for standard output); %r the MPI rank,
                          %h the host, %p the pid; .csv or .json (pmcount's own) choose the
                          format
  -h, --help              this text
      --version           the version

Exit status: the command's (128+N when signal N killed it), even when the counts could not
be written afterwards (a message says so); 127 if the command was not found, 126 if it could
not be run; 2 for a usage error; 125 when counting failed or the -o file cannot be opened
(the command is not run).
SIGINT, SIGTERM and SIGHUP are passed to the command, and the counts so far are printed.
More in pmcount(1), )" PMAPI_DOC_DIR R"(/tools.md and, for MPI runs, mpi.md.
)";
}

}  // namespace pmcount
