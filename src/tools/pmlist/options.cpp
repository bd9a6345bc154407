#include "options.h"

#include <pmapi.h>

namespace pmlist {
namespace {

// Splits "a,b" and maps each item with `lookup` (0: unknown). Returns "" or what is wrong.
template <typename Lookup>
std::string ParseSet(const std::string &text, const char *what, const char *known, Lookup lookup,
                     unsigned *out) {
  unsigned bits = 0;
  size_t start = 0;
  while (true) {
    const size_t comma = text.find(',', start);
    const std::string item = text.substr(start, comma == std::string::npos ? comma : comma - start);
    const unsigned bit = lookup(item);
    if (bit == 0) {
      return "unknown " + std::string(what) + " '" + item + "'; known: " + known;
    }
    bits |= bit;
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  *out = bits;
  return "";
}

unsigned StatusBit(const std::string &name) {
  if (name == "verified") return PM_VERIFIED;
  if (name == "unverified") return PM_UNVERIFIED;
  if (name == "caveat") return PM_CAVEAT;
  return 0;
}

unsigned FilterBit(const std::string &letter) {
  if (letter == "v") return PM_VERIFIED;
  if (letter == "u") return PM_UNVERIFIED;
  if (letter == "c") return PM_CAVEAT;
  return 0;
}

unsigned SourceBit(const std::string &name) {
  if (name == "table" || name == "tables") return kSourceTable;
  if (name == "pmu" || name == "libpfm4") return kSourcePmu;
  if (name == "software") return kSourceSoftware;
  if (name == "sysfs") return kSourceSysfs;
  if (name == "tracepoint" || name == "tracepoints") return kSourceTracepoint;
  return 0;
}

}  // namespace

std::string ParseOptions(const std::vector<std::string> &args, Options *options) {
  Options o;
  for (size_t i = 0; i < args.size(); ++i) {
    std::string arg = args[i];
    std::string value;
    const bool has_value =
        arg.size() > 2 && arg[0] == '-' && arg[1] == '-' && arg.find('=') != std::string::npos;
    if (has_value) {
      value = arg.substr(arg.find('=') + 1);
      arg = arg.substr(0, arg.find('='));
    }
    auto take_value = [&](std::string *out) -> bool {
      if (has_value) {
        *out = value;
        return true;
      }
      if (i + 1 >= args.size()) return false;
      *out = args[++i];
      return true;
    };
    // AIX's query letters, each with its argument.
    auto query = [&](AixQuery which) -> std::string {
      if (o.aix != AixQuery::kNone)
        return "one AIX query at a time (-s, -g, -c, -e, -l, -D, -m, -S, -V)";
      o.aix = which;
      if (which == AixQuery::kSummary || which == AixQuery::kProcessors) return "";
      if (!take_value(&o.aix_arg) || o.aix_arg.empty()) return "option " + arg + " needs a value";
      return "";
    };
    const bool next_is_value = i + 1 < args.size() && !args[i + 1].empty() &&
                               (args[i + 1][0] != '-' || args[i + 1] == "-1");
    unsigned status_bits = 0;
    const bool next_is_status =
        i + 1 < args.size() && ParseSet(args[i + 1], "status", "", StatusBit, &status_bits).empty();
    std::string error;
    if (arg == "-h" || arg == "--help") {
      o.help = true;
    } else if (arg == "-g" && next_is_value) {
      error = query(AixQuery::kGroups);  // AIX: -g -1 or -g GROUP
    } else if (arg == "-g" || arg == "--groups") {
      o.groups = true;  // today's listing of every group (--groups PATTERN filters it)
    } else if (arg == "-s" && !next_is_status) {
      error = query(AixQuery::kSummary);  // AIX: the processor summary
    } else if (arg == "-c") {
      error = query(AixQuery::kCounters);
    } else if (arg == "-e") {
      error = query(AixQuery::kEvent);
    } else if (arg == "-l") {
      error = query(AixQuery::kProcessors);
    } else if (arg == "-D") {
      error = query(AixQuery::kDerived);
    } else if (arg == "-m") {
      error = query(AixQuery::kMetricGroups);
    } else if (arg == "-S") {
      error = query(AixQuery::kSets);
    } else if (arg == "-V") {
      error = query(AixQuery::kVariables);
    } else if (arg == "-p") {
      if (!take_value(&o.processor) || o.processor.empty()) return "option -p needs a processor";
    } else if (arg == "-d") {
      o.detailed = true;
    } else if (arg == "-o") {
      std::string format;
      if (!take_value(&format)) return "option -o needs t, c or x";
      if (format != "t" && format != "c" && format != "x") {
        return "-o takes t (text), c (CSV) or x (XML); got '" + format + "'";
      }
      o.format = format[0];
    } else if (arg == "-f") {
      // AIX's filter letters: v verified, u unverified, c caveat.
      std::string list;
      if (!take_value(&list)) return "option -f needs a filter list (v,u,c)";
      unsigned bits = 0;
      error = ParseSet(list, "filter", "v, u, c", FilterBit, &bits);
      if (error.empty()) {
        o.status_filter = static_cast<int>(bits);
        o.status_given = true;
      }
    } else if (arg == "-v" || arg == "--verbose") {
      o.verbose = true;
    } else if (arg == "--no-wrap") {
      o.no_wrap = true;
    } else if (arg == "-j" || arg == "--json") {
      o.json = true;
    } else if (arg == "-s" || arg == "--status") {
      std::string list;
      if (!take_value(&list)) return "option " + arg + " needs a status list";
      unsigned bits = 0;
      error = ParseSet(list, "status", "verified, caveat, unverified", StatusBit, &bits);
      if (!error.empty()) return error;
      o.status_filter = static_cast<int>(bits);
      o.status_given = true;
    } else if (arg == "--source") {
      std::string list;
      if (!take_value(&list)) return "option --source needs a source list";
      error = ParseSet(list, "source", "table, pmu, software, sysfs, tracepoint", SourceBit,
                       &o.sources);
      if (!error.empty()) return error;
      o.sources_given = true;
    } else if (arg.size() > 1 && arg[0] == '-') {
      return "unknown option '" + arg + "'";
    } else {
      if (arg.find_first_not_of(" \t\n") == std::string::npos) {
        return "an empty pattern matches everything: leave it out";
      }
      o.pattern += (o.pattern.empty() ? "" : " ") + arg;  // every word must match
    }
    if (!error.empty()) return error;
    if (has_value && arg != "--status" && arg != "--source") {
      return "option " + arg + " takes no value";
    }
  }
  if (o.aix != AixQuery::kNone && !o.help) {
    if (!o.pattern.empty()) {
      return "AIX's queries take no pattern (got '" + o.pattern +
             "'); today's listing does: pmlist --groups PATTERN, pmlist PATTERN";
    }
    if (o.groups || o.json || o.verbose || o.sources_given) {
      return "-g, -j, -v and --source belong to today's listing, not to AIX's queries (-o c "
             "gives CSV)";
    }
  } else if (!o.help && (o.detailed || o.format != 't')) {
    return "-d and -o shape AIX's queries (-s, -g GROUP, -c, -e, ...): add one";
  }
  // Groups have no source and no encoding of their own: rather than ignore these silently,
  // say so (their members' sources and encodings are one `pmlist -v NAME` away).
  if (o.groups && !o.help) {
    if (o.sources_given) {
      return "--source selects events by where they come from; it does not apply to -g "
             "(groups): leave one of them out";
    }
    if (o.verbose) {
      return "-v shows how events are encoded; it does not apply to -g (groups): leave one of "
             "them out, and use pmlist -v EVENT for a member";
    }
  }
  *options = o;
  return "";
}

std::string UsageText() {
  return R"(Usage: pmlist [options] [WORD...]

Lists what this machine can count through the AIX pmapi calls, as pm_initialize reports it:
each event's id, short name, status here, the counters it may go on, and its description.

  WORD...                 only entries that match every WORD, in any order and any case:
                          a word is found in the name, long name or description; a word
                          with a wildcard (* ? [...]) matches the name, or the name after
                          its "subsystem:" or PMU, as pmcount -e takes it
                          ("pmlist instructions retired", "pmlist 'sys_enter_getpp*'").
                          Nothing matches: the closest names, and exit status 1
      --status LIST       verified, caveat, unverified (comma-separated; default: all).
                          verified: the kernel counts it here; caveat: it counts, with a
                          difference the description states; unverified: it does not count
                          here, and the description says why
      --source LIST       table, pmu, software, sysfs, tracepoint (default: all)
      --groups            list the event groups instead: members and derived metrics
                          (with --status and WORDs; not with --source or -v); -g alone
                          too
  -v, --verbose           also show how each event is encoded for perf_event_open
  -j, --json              one JSON document instead of the table
      --no-wrap           one line per event on a terminal too (descriptions are wrapped
                          to its width, $COLUMNS or the terminal's, only there)
  -h, --help              this text

AIX's queries, in AIX's layout (one at a time; -p, -d, -f and -o shape them):
  -s                      the processor summary
  -g -1 | -g GROUP        every group, or one by name or number
  -c -1 | -c N | -c N,EV  the events of every counter, of counter N, or EV on counter N
  -e NAME                 one event, on every counter that takes it
  -l                      the processors this pmlist knows (this machine's)
  -D -1 | -D METRIC       the derived metrics, or one with its formula
  -m -1 | -m GROUP        the derived metrics by group
  -S -1 | -S SET          the sets (on Linux, the groups)
  -V NAME                 a variable of the metric formulas
  -p PROCESSOR            must name this machine's processor
  -f v,u,c                status filter (verified, unverified, caveat)
  -d                      each event's description too;  -o t|c|x: text, CSV or XML

Migration: before AIX's options, -s took a status list and -g listed every group with an
optional PATTERN. Both still work where AIX gives them no meaning (-s LIST, -g alone); the
long forms --status LIST and --groups [PATTERN] always do.

Countable events (verified, then caveat) come first, then the unverified ones, each by id.
Ids are what pmapi programs (and pmcount -e) take: an event's id is its index in
pm_initialize's lists. The curated table events come first and keep their ids on every
machine; the ids of the others depend on the machine. pmlist lists every tracepoint;
pm_initialize lists a default set plus those PMAPI_LIST_TRACEPOINTS selects by pattern, and
counts any of them by name. See pmcount(1) to count them, and
)" PMAPI_DOC_DIR R"(/catalog.md.
)";
}

}  // namespace pmlist
