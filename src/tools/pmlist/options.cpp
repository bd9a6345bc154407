// SPDX-License-Identifier: MIT
#include "options.h"

#include <pmapi.h>

#include "option_table.h"

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

// pmlist's options, each one row (tools::OptionTable): --help lists the same rows. Today's
// listing takes long names; AIX's queries are single letters, some with an optional value.
tools::OptionTable Table(Options *o) {
  using Value = const std::string &;
  // AIX's query letters, each with its argument (none for -s and -l).
  auto query = [o](AixQuery which) {
    return [o, which](Value value, Value spelled) -> std::string {
      if (o->aix != AixQuery::kNone)
        return "one AIX query at a time (-s, -g, -c, -e, -l, -D, -m, -S, -V)";
      o->aix = which;
      o->aix_arg = value;
      if (which == AixQuery::kSummary || which == AixQuery::kProcessors) return "";
      if (value.empty()) return "option " + spelled + " needs a value";
      return "";
    };
  };
  auto flag = [](bool *field) {
    return [field](Value, Value) {
      *field = true;
      return std::string();
    };
  };
  auto status = [o](Value list, Value) {
    unsigned bits = 0;
    std::string error = ParseSet(list, "status", "verified, caveat, unverified", StatusBit, &bits);
    if (!error.empty()) return error;
    o->status_filter = static_cast<int>(bits);
    o->status_given = true;
    return std::string();
  };
  auto run_query = query(AixQuery::kGroups);
  auto run_summary = query(AixQuery::kSummary);
  tools::Option aix_groups{
      "", 'g', "-1|GROUP", "every group, or one by name or number (-g alone: --groups)",
      [o, run_query](Value value, Value spelled) -> std::string {
        if (value.empty()) {
          o->groups = true;  // today's listing of every group (--groups PATTERN filters it)
          return "";
        }
        return run_query(value, spelled);  // AIX: -g -1 or -g GROUP
      }};
  aix_groups.value_if = [](Value next) {
    return !next.empty() && (next[0] != '-' || next == "-1");
  };
  tools::Option aix_summary{
      "", 's', nullptr, "the processor summary (-s LIST, where AIX has none: --status LIST)",
      [status, run_summary](Value value, Value spelled) {
        return value.empty() ? run_summary(value, spelled) : status(value, spelled);
      }};
  aix_summary.value_if = [](Value next) {
    unsigned bits = 0;
    return ParseSet(next, "status", "", StatusBit, &bits).empty();
  };
  return tools::OptionTable({
      tools::Text(
          "  WORD...                 only entries that match every WORD, in any order and any "
          "case:\n"
          "                          a word is found in the name, long name or description; a "
          "word\n"
          "                          with a wildcard (* ? [...]) matches the name, or the name "
          "after\n"
          "                          its \"subsystem:\" or PMU, as pmcount -e takes it\n"
          "                          (\"pmlist instructions retired\", \"pmlist "
          "'sys_enter_getpp*'\").\n"
          "                          Nothing matches: the closest names, and exit status 1"),
      {"status", 0, "LIST",
       "verified, caveat, unverified (comma-separated; default: all).\n"
       "verified: the kernel counts it here; caveat: it counts, with a\n"
       "difference the description states; unverified: it does not count\n"
       "here, and the description says why",
       status},
      {"source", 0, "LIST", "table, pmu, software, sysfs, tracepoint (default: all)",
       [o](Value list, Value) {
         std::string error = ParseSet(list, "source", "table, pmu, software, sysfs, tracepoint",
                                      SourceBit, &o->sources);
         if (error.empty()) o->sources_given = true;
         return error;
       }},
      {"groups", 0, nullptr,
       "list the event groups instead: members and derived metrics\n"
       "(with --status and WORDs; not with --source or -v); -g alone\n"
       "too",
       flag(&o->groups)},
      {"verbose", 'v', nullptr, "also show how each event is encoded for perf_event_open",
       flag(&o->verbose)},
      {"json", 'j', nullptr, "one JSON document instead of the table", flag(&o->json)},
      {"no-wrap", 0, nullptr,
       "one line per event on a terminal too (descriptions are wrapped\n"
       "to its width, $COLUMNS or the terminal's, only there)",
       flag(&o->no_wrap)},
      {"help", 'h', nullptr, "this text", flag(&o->help)},
      {"version", 0, nullptr, "the version", flag(&o->version)},
      tools::Text(""),
      tools::Text("AIX's queries, in AIX's layout (one at a time; -p, -d, -f and -o shape them):"),
      aix_summary,
      aix_groups,
      {"", 'c', "-1|N|N,EV", "the events of every counter, of counter N, or EV on counter N",
       query(AixQuery::kCounters)},
      {"", 'e', "NAME", "one event, on every counter that takes it", query(AixQuery::kEvent)},
      {"", 'l', nullptr, "the processors this pmlist knows (this machine's)",
       query(AixQuery::kProcessors)},
      {"", 'D', "-1|METRIC", "the derived metrics, or one with its formula",
       query(AixQuery::kDerived)},
      {"", 'm', "-1|GROUP", "the derived metrics by group", query(AixQuery::kMetricGroups)},
      {"", 'S', "-1|SET", "the sets (on Linux, the groups)", query(AixQuery::kSets)},
      {"", 'V', "NAME", "a variable of the metric formulas", query(AixQuery::kVariables)},
      {"", 'p', "PROCESSOR", "must name this machine's processor",
       [o](Value value, Value) -> std::string {
         if (value.empty()) return "option -p needs a processor";
         o->processor = value;
         return "";
       }},
      {"", 'f', "v,u,c", "status filter (verified, unverified, caveat)",
       [o](Value list, Value) {
         // AIX's filter letters: v verified, u unverified, c caveat.
         unsigned bits = 0;
         std::string error = ParseSet(list, "filter", "v, u, c", FilterBit, &bits);
         if (error.empty()) {
           o->status_filter = static_cast<int>(bits);
           o->status_given = true;
         }
         return error;
       }},
      {"", 'd', nullptr, "each event's description too", flag(&o->detailed)},
      {"", 'o', "t|c|x", "text, CSV or XML",
       [o](Value format, Value) -> std::string {
         if (format != "t" && format != "c" && format != "x") {
           return "-o takes t (text), c (CSV) or x (XML); got '" + format + "'";
         }
         o->format = format[0];
         return "";
       }},
  });
}

// What a missing value is called, option by option.
std::string MissingValue(const std::string &spelled) {
  if (spelled == "-p") return "option -p needs a processor";
  if (spelled == "-o") return "option -o needs t, c or x";
  if (spelled == "-f") return "option -f needs a filter list (v,u,c)";
  if (spelled == "--status") return "option --status needs a status list";
  if (spelled == "--source") return "option --source needs a source list";
  return "option " + spelled + " needs a value";
}

}  // namespace

std::string ParseOptions(const std::vector<std::string> &args, Options *options) {
  Options o;
  std::vector<std::string> rest;
  auto pattern = [&o](const std::string &arg, const std::string &) -> std::string {
    if (arg.find_first_not_of(" \t\n") == std::string::npos) {
      return "an empty pattern matches everything: leave it out";
    }
    o.pattern += (o.pattern.empty() ? "" : " ") + arg;  // every word must match
    return "";
  };
  const tools::OptionError error =
      Table(&o).Parse(args, &rest, tools::OptionTable::Operands::kAnywhere, pattern);
  if (error.kind == tools::OptionError::kMissingValue) return MissingValue(error.spelled);
  if (error) return error.message;
  for (const std::string &arg : rest) {  // after "--"
    const std::string wrong = pattern(arg, "");
    if (!wrong.empty()) return wrong;
  }
  if (o.aix != AixQuery::kNone && !o.help && !o.version) {
    if (!o.pattern.empty()) {
      return "AIX's queries take no pattern (got '" + o.pattern +
             "'); today's listing does: pmlist --groups PATTERN, pmlist PATTERN";
    }
    if (o.groups || o.json || o.verbose || o.sources_given) {
      return "-g, -j, -v and --source belong to today's listing, not to AIX's queries (-o c "
             "gives CSV)";
    }
  } else if (!o.help && !o.version && (o.detailed || o.format != 't')) {
    return "-d and -o shape AIX's queries (-s, -g GROUP, -c, -e, ...): add one";
  }
  // Groups have no source and no encoding of their own: rather than ignore these silently,
  // say so (their members' sources and encodings are one `pmlist -v NAME` away).
  if (o.groups && !o.help && !o.version) {
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
  Options unused;
  return R"(Usage: pmlist [options] [WORD...]

Lists what this machine can count through the AIX pmapi calls, as pm_initialize reports it:
each event's id, short name, status here, the counters it may go on, and its description.

)" + Table(&unused).Help() +
         R"(
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
