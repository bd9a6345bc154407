/* SPDX-License-Identifier: MIT */
// pmlist's command line: a pure function of the arguments.
#pragma once

#include <string>
#include <vector>

namespace pmlist {

// Event sources, as --source names them.
enum Source : unsigned {
  kSourceTable = 1,       // events/ tables: AIX mnemonics and named software events
  kSourcePmu = 2,         // libpfm4's PMU events ("pmu::EVENT")
  kSourceSoftware = 4,    // kernel software events (from the tables or libpfm4's perf PMU)
  kSourceSysfs = 8,       // kernel PMU events declared in sysfs ("pmu/event")
  kSourceTracepoint = 16  // tracefs tracepoints ("subsystem:event")
};
constexpr unsigned kAllSources = 31;

// AIX's queries (pmlist -s, -g GROUP, -c, -e, ...), printed in AIX's text layout
// (aix_query.h). kNone: today's listing.
enum class AixQuery {
  kNone,
  kSummary,       // -s
  kGroups,        // -g -1 | -g GROUP
  kCounters,      // -c -1 | -c COUNTER | -c COUNTER,EVENT
  kEvent,         // -e SHORTNAME
  kProcessors,    // -l
  kDerived,       // -D -1 | -D METRIC
  kMetricGroups,  // -m -1 | -m GROUP
  kSets,          // -S -1 | -S SET
  kVariables      // -V VARIABLE
};

struct Options {
  int status_filter = 7;  // PM_VERIFIED | PM_UNVERIFIED | PM_CAVEAT
  bool status_given = false;
  unsigned sources = kAllSources;
  bool sources_given = false;
  // The search words, joined by blanks (api/event_search.h): each a case-insensitive
  // substring of name, long name or description, or a wildcard over the name.
  std::string pattern;
  bool groups = false;
  bool verbose = false;
  bool json = false;
  bool help = false;
  bool version = false;
  bool no_wrap = false;  // --no-wrap: one line per event on a terminal too
  AixQuery aix = AixQuery::kNone;
  std::string aix_arg;    // the query's argument: "-1", a group, "2,PM_CYC", ...
  std::string processor;  // -p: must be this machine's
  bool detailed = false;  // -d: each event's description too
  char format = 't';      // -o t|c|x
};

// Returns "" or what is wrong.
std::string ParseOptions(const std::vector<std::string> &args, Options *options);
std::string UsageText();

}  // namespace pmlist
