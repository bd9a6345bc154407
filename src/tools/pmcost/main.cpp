// SPDX-License-Identifier: MIT
// pmcost: min/median/p99 of each libpmapi call on this machine, in the
// spirit of papi_cost, so that users can check their own system.
#include <pmapi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <algorithm>
#include <new>
#include <string>

#include "options.h"
#include "sampling.h"
#include "session_rows.h"
#include "stats.h"
#include "tool_messages.h"

namespace {

constexpr int kColdRunsMax = 20;

void PrintRow(const std::string &call, std::vector<double> &ns) {
  Summary s = Summarize(ns);
  printf("%-52s %10.0f %10.0f %10.0f\n", call.c_str(), s.min, s.median, s.p99);
}

void PrintSkipped(const std::string &call, const char *why) {
  printf("%-52s skipped: %s\n", call.c_str(), why);
}

// Puts the id of options.events[i] on counter i; reports unknown names.
bool BuildProgram(const pm_info2_t &info, const Options &options, pm_prog_t *prog) {
  memset(prog, 0, sizeof *prog);
  for (int &event : prog->events) event = COUNT_NOTHING;
  prog->mode.w = PM_USER | PM_KERNEL;
  for (size_t counter = 0; counter < options.events.size(); ++counter) {
    const std::string &name = options.events[counter];
    const int c = static_cast<int>(counter);
    for (int i = 0; i < info.maxevents[c] && prog->events[c] == COUNT_NOTHING; ++i) {
      if (name == info.list_events[c][i].short_name)
        prog->events[c] = info.list_events[c][i].event_id;
    }
    if (prog->events[c] == COUNT_NOTHING) {
      fprintf(stderr, "pmcost: no event '%s' on counter %d in this machine's catalog\n",
              name.c_str(), c);
      return false;
    }
  }
  return true;
}

void MeasureMyThread(const pm_prog_t &base, long n, std::vector<double> *times) {
  pm_prog_t counting = base;
  counting.mode.w |= PM_COUNT;
  int rc = pm_set_program_mythread(&counting);
  if (rc != 0) {
    PrintSkipped("pm_*_mythread", pm_strerror("pm_set_program_mythread", rc));
    return;
  }
  pm_data_t data;
  PrintRow("pm_get_data_mythread", Sample(times, n, [&] { pm_get_data_mythread(&data); }));
  PrintRow("pm_start_mythread+pm_stop_mythread", Sample(times, n, [] {
             pm_start_mythread();
             pm_stop_mythread();
           }));
  pm_start_mythread();
  PrintRow("pm_reset_data_mythread", Sample(times, n, [] { pm_reset_data_mythread(); }));
  pm_delete_program_mythread();

  pm_prog_t idle = base;
  PrintRow("pm_set_program_mythread+pm_delete_program_mythread", Sample(times, n, [&] {
             pm_set_program_mythread(&idle);
             pm_delete_program_mythread();
           }));
}

void MeasureSystemWide(const pm_prog_t &base, long n, std::vector<double> *times) {
  const std::string label =
      "pm_get_data (system-wide, " + std::to_string(sysconf(_SC_NPROCESSORS_ONLN)) + " CPUs)";
  pm_prog_t counting = base;
  counting.mode.w |= PM_COUNT;
  int rc = pm_set_program(&counting);
  if (rc == Pmapi_Permission) return PrintSkipped(label, "needs root or CAP_PERFMON");
  if (rc != 0) return PrintSkipped(label, pm_strerror("pm_set_program", rc));
  pm_data_t data;
  PrintRow(label, Sample(times, n, [&] { pm_get_data(&data); }));
  pm_delete_program();
}

void MeasureInitialize(long n) {
  const int runs = static_cast<int>(std::min<long>(n, kColdRunsMax));
  std::vector<double> ns = SampleColdInitialize(runs);
  const std::string label = "pm_initialize (fresh process, " + std::to_string(runs) + " runs)";
  if (ns.empty()) return PrintSkipped(label, "a child process failed");
  PrintRow(label, ns);
}

}  // namespace

int main(int argc, char **argv) {
  if (getenv(kColdChildVariable)) return RunColdInitializeChild();
  Options options;
  if (!ParseOptions(argc, argv, &options)) return tools::kUsageExit;
  if (options.help) {
    PrintUsage(argv[0]);
    return 0;
  }
  if (options.version) return tools::PrintVersion("pmcost");
  // Room for every call's time of a row, taken before anything is measured: an -n this
  // process cannot hold (a memory limit) is a usage error, not an exception in the middle.
  std::vector<double> times;
  try {
    times.reserve(static_cast<size_t>(options.iterations));
  } catch (const std::bad_alloc &) {
    fprintf(stderr,
            "pmcost: -n %ld: no memory for that many call times (%.1f GB): give a smaller "
            "-n\n",
            options.iterations, static_cast<double>(options.iterations) * sizeof(double) / 1e9);
    return 2;
  }
  pm_info2_t info;
  int rc = pm_initialize(PM_VERIFIED | PM_UNVERIFIED | PM_CAVEAT, &info, nullptr, PM_CURRENT);
  if (rc != 0) {
    pm_error("pmcost: pm_initialize", rc);
    return 1;
  }
  pm_prog_t prog;
  if (!BuildProgram(info, options, &prog)) return 1;

  std::string names;
  for (const std::string &name : options.events) names += (names.empty() ? "" : ",") + name;
  printf("pmcost: %zu events (%s), %ld calls per row, times in ns\n", options.events.size(),
         names.c_str(), options.iterations);
  printf("%-52s %10s %10s %10s\n", "call", "min", "median", "p99");
  MeasureMyThread(prog, options.iterations, &times);
  MeasureSystemWide(prog, options.iterations, &times);
  MeasureSession(options.iterations, &times, PrintRow, PrintSkipped);
  MeasureInitialize(options.iterations);
  return 0;
}
