#include "options.h"

#include <pmapi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

}  // namespace

void PrintUsage(const char *program) {
  printf(
      "Usage: %s [-n ITERATIONS] [-e EVENT[,EVENT...]]\n"
      "\n"
      "Measures what each libpmapi call costs on this machine and prints the\n"
      "minimum, median and 99th percentile in nanoseconds.\n"
      "\n"
      "  -n N        timed calls per row (default 10000); pm_initialize is timed in\n"
      "              min(N, 20) freshly started processes\n"
      "  -e LIST     catalog short names, one per counter, comma-separated\n"
      "              (default task-clock,page-faults,context-switches,cpu-migrations;\n"
      "              pmlist or pm_initialize lists the names)\n"
      "  -h, --help  this text\n"
      "\n"
      "Rows: pm_get_data_mythread, pm_start_mythread+pm_stop_mythread,\n"
      "pm_reset_data_mythread, pm_set_program_mythread+pm_delete_program_mythread,\n"
      "pm_get_data (system-wide: needs root or CAP_PERFMON), pm_initialize.\n"
      "Each sample is one call bracketed by two CLOCK_MONOTONIC reads, so it\n"
      "includes one clock read (tens of nanoseconds).\n",
      program);
}

bool ParseOptions(int argc, char **argv, Options *options) {
  for (int i = 1; i < argc; ++i) {
    const char *arg = argv[i];
    if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
      options->help = true;
    } else if ((strcmp(arg, "-n") == 0 || strcmp(arg, "-e") == 0) && i + 1 < argc) {
      const char *value = argv[++i];
      if (arg[1] == 'n') {
        char *end = nullptr;
        options->iterations = strtol(value, &end, 10);
        if (*value == '\0' || *end != '\0' || options->iterations < 1) {
          fprintf(stderr, "pmcost: -n wants a positive number, not '%s'\n", value);
          return false;
        }
      } else {
        options->events = SplitCommas(value);
        if (options->events.empty() || options->events.size() > MAX_COUNTERS) {
          fprintf(stderr, "pmcost: -e wants 1 to %d event names\n", MAX_COUNTERS);
          return false;
        }
      }
    } else {
      fprintf(stderr, "pmcost: unknown or incomplete argument '%s' (try --help)\n", arg);
      return false;
    }
  }
  return true;
}
