// SPDX-License-Identifier: MIT
#include "options.h"

#include <pmapi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "option_table.h"
#include "tool_messages.h"

namespace {

std::vector<std::string> SplitCommas(const char *list) {
  std::vector<std::string> names;
  std::string current;
  for (const char *p = list;; ++p) {
    if (*p == ',' || *p == '\0') {
      if (!current.empty()) names.push_back(current);
      current.clear();
      if (*p == '\0') break;
    } else {
      current += *p;
    }
  }
  return names;
}

// pmcost's options, each one row (tools::OptionTable): --help lists the same rows.
tools::OptionTable Table(Options *options) {
  return tools::OptionTable(
      {
          {"", 'n', "N",
           "timed calls per row (default 10000); pm_initialize is timed in\n"
           "min(N, 20) freshly started processes",
           tools::WholeNumber(
               "number of calls", 1, kMaxIterations,
               [options](long long n) { options->iterations = static_cast<long>(n); })},
          {"", 'e', "LIST",
           "catalog short names, one per counter, comma-separated\n"
           "(default task-clock,page-faults,context-switches,cpu-migrations;\n"
           "pmlist or pm_initialize lists the names)",
           [options](const std::string &value, const std::string &) -> std::string {
             options->events = SplitCommas(value.c_str());
             if (options->events.empty() || options->events.size() > MAX_COUNTERS) {
               return "-e wants 1 to " + std::to_string(MAX_COUNTERS) + " event names";
             }
             return "";
           }},
          {"help", 'h', nullptr, "this text",
           [options](const std::string &, const std::string &) {
             options->help = true;
             return std::string();
           }},
          {"version", 0, nullptr, "the version",
           [options](const std::string &, const std::string &) {
             options->version = true;
             return std::string();
           }},
      },
      14);
}

}  // namespace

void PrintUsage(const char *program) {
  Options unused;
  printf(
      "Usage: %s [-n ITERATIONS] [-e EVENT[,EVENT...]]\n"
      "\n"
      "Measures what each libpmapi call costs on this machine and prints the\n"
      "minimum, median and 99th percentile in nanoseconds.\n"
      "\n"
      "%s"
      "\n"
      "Rows: pm_get_data_mythread, pm_start_mythread+pm_stop_mythread,\n"
      "pm_reset_data_mythread, pm_set_program_mythread+pm_delete_program_mythread,\n"
      "pm_get_data (system-wide: needs root or CAP_PERFMON), the counting\n"
      "session's pm_session_read of 1 and of 8 software events and\n"
      "pm_session_start+pm_session_stop (8 software events, whatever -e says),\n"
      "pm_initialize.\n"
      "Each sample is one call bracketed by two CLOCK_MONOTONIC reads, so it\n"
      "includes one clock read (tens of nanoseconds).\n",
      program, Table(&unused).Help().c_str());
}

bool ParseOptions(int argc, char **argv, Options *options) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  std::vector<std::string> rest;
  const tools::OptionError error = Table(options).Parse(args, &rest);
  if (error) {
    tools::UsageError("pmcost", error.message);
    return false;
  }
  if (!rest.empty()) {
    tools::UsageError("pmcost", "takes no operands (got '" + rest[0] + "')");
    return false;
  }
  return true;
}
