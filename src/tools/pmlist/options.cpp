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
    if (arg == "-h" || arg == "--help") {
      o.help = true;
    } else if (arg == "-g" || arg == "--groups") {
      o.groups = true;
    } else if (arg == "-v" || arg == "--verbose") {
      o.verbose = true;
    } else if (arg == "-j" || arg == "--json") {
      o.json = true;
    } else if (arg == "-s" || arg == "--status") {
      std::string list;
      if (!take_value(&list)) return "option " + arg + " needs a status list";
      unsigned bits = 0;
      std::string error =
          ParseSet(list, "status", "verified, caveat, unverified", StatusBit, &bits);
      if (!error.empty()) return error;
      o.status_filter = static_cast<int>(bits);
      o.status_given = true;
    } else if (arg == "--source") {
      std::string list;
      if (!take_value(&list)) return "option --source needs a source list";
      std::string error = ParseSet(list, "source", "table, pmu, software, sysfs, tracepoint",
                                   SourceBit, &o.sources);
      if (!error.empty()) return error;
      o.sources_given = true;
    } else if (arg.size() > 1 && arg[0] == '-') {
      return "unknown option '" + arg + "'";
    } else {
      if (!o.pattern.empty()) return "one pattern only (got '" + o.pattern + "' and '" + arg + "')";
      if (arg.empty()) return "an empty pattern matches everything: leave it out";
      o.pattern = arg;
    }
    if (has_value && arg != "--status" && arg != "--source") {
      return "option " + arg + " takes no value";
    }
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
  return R"(Usage: pmlist [options] [PATTERN]

Lists what this machine can count through the AIX pmapi calls, as pm_initialize reports it:
each event's id, short name, status here, the counters it may go on, and its description.

  PATTERN                 only entries whose name or description contains PATTERN
                          (any case)
  -s, --status LIST       verified, caveat, unverified (comma-separated; default: all).
                          verified: the kernel counts it here; caveat: it counts, with a
                          difference the description states; unverified: it does not count
                          here, and the description says why
      --source LIST       table, pmu, software, sysfs, tracepoint (default: all)
  -g, --groups            list the event groups instead: members and derived metrics
                          (with -s and PATTERN; not with --source or -v)
  -v, --verbose           also show how each event is encoded for perf_event_open
  -j, --json              one JSON document instead of the table
  -h, --help              this text

Ids are what pmapi programs (and pmcount -e) take: an event's id is its index in
pm_initialize's lists. The curated table events come first and keep their ids on every
machine; the ids of the others depend on the machine. pmlist lists every tracepoint;
pm_initialize lists a default set plus those PMAPI_LIST_TRACEPOINTS selects by pattern, and
counts any of them by name. See pmcount(1) to count them, and
)" PMAPI_DOC_DIR R"(/catalog.md.
)";
}

}  // namespace pmlist
