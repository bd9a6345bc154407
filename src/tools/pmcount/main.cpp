// SPDX-License-Identifier: MIT
// pmcount: counts events for a command and everything it starts, or for the whole machine,
// through the counting session of pmapi_session.h (-T's event sets through AIX's _mx programs;
// see docs/pmcount.1 and docs/tools.md).
//
// Everything that can be wrong with the command line, the events or the CPUs is found before
// the command starts or anything is printed; then the session programs, runs and prints.
#include <pmapi.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <algorithm>
#include <memory>

#include "attach_targets.h"
#include "count_mode.h"
#include "cpu_places.h"
#include "event_patterns.h"
#include "event_selection.h"
#include "merge.h"
#include "metric_choice.h"
#include "multiplex_plan.h"
#include "options.h"
#include "output_file.h"
#include "output_pattern.h"
#include "printer.h"
#include "session.h"
#include "timeline_printer.h"
#include "topology/cpu_map.h"

namespace pmcount {
namespace {

constexpr int kUsage = 2;
constexpr int kFailed = 125;

int UsageError(const std::string &message) {
  fprintf(stderr, "pmcount: %s\nTry 'pmcount --help' for more information.\n", message.c_str());
  return kUsage;
}

int Failure(const std::string &message) {
  fprintf(stderr, "pmcount: %s\n", message.c_str());
  return kFailed;
}

// The topology's CPU map of the CPUs online now (ascending Linux numbers); empty when the
// kernel does not say.
std::vector<int> OnlineCpus() {
  pmapi::CpuMap online;
  if (!pmapi::CpuMap::Online(pmapi::Topology(), &online).ok()) return {};
  return online.linux_cpus();
}

// -C against the online CPUs; fills the reported CPUs and their places.
std::string ChooseCpus(const Options &options, Setup *setup) {
  const std::vector<int> online = OnlineCpus();
  if (online.empty()) return "cannot read the online CPUs from /sys/devices/system/cpu/online";
  if (options.cpus_given) {
    for (int cpu : options.cpus) {
      if (std::find(online.begin(), online.end(), cpu) == online.end()) {
        return "CPU " + std::to_string(cpu) + " in -C " + FormatCpuList(options.cpus) +
               " is not online (online: " + FormatCpuList(online) + ")";
      }
    }
    setup->cpus = options.cpus;
  } else {
    setup->cpus = online;
  }
  // Cores and sockets come from hwloc (a few ms): only when the split needs them.
  const bool needs_topology = options.aggregation == Aggregation::kPerCore ||
                              options.aggregation == Aggregation::kPerSocket;
  setup->places = PlacesOf(setup->cpus, needs_topology);
  return "";
}

// -T: each -e list and each -g group is a set of its own, selected as if alone.
std::string SelectSets(const Options &options, Setup *setup) {
  for (size_t k = 0; k < options.sets.size(); ++k) {
    const SetArgument &argument = options.sets[k];
    Options alone = options;
    alone.event_lists.clear();
    alone.group.clear();
    (argument.is_group ? alone.group : alone.event_lists.emplace_back()) = argument.text;
    Selection selection;
    std::string error = SelectEvents(alone, &selection);
    if (!error.empty()) return "event set " + std::to_string(k + 1) + ": " + error;
    setup->sets.push_back(std::move(selection));
  }
  std::vector<int> set_of_event;
  setup->selection = FlattenSets(setup->sets, &set_of_event);
  return "";
}

std::string FormatIdList(const std::vector<int> &ids) {
  std::string text;
  for (int id : ids) text += (text.empty() ? "" : ",") + std::to_string(id);
  return text;
}

int Main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "--merge") == 0) {
    return RunMerge(std::vector<std::string>(argv + 2, argv + argc));
  }
  Options options;
  std::string error = ParseOptions(std::vector<std::string>(argv + 1, argv + argc), &options);
  if (error.empty()) error = ApplyOutputPattern(&options);
  if (!error.empty()) return UsageError(error);
  if (options.help) {
    fputs(UsageText().c_str(), stdout);
    return 0;
  }
  if (options.version) {
    printf("pmcount (libpmapi) %s\n", PMCOUNT_VERSION);
    return 0;
  }

  pm_info2_t info;
  const int rc = pm_initialize(PM_VERIFIED | PM_UNVERIFIED | PM_CAVEAT, &info, nullptr, PM_CURRENT);
  if (rc != 0) return Failure(pm_strerror("pm_initialize", rc));

  error = ChooseMetrics(&options);                           // -M: the group to count
  if (error.empty()) error = ExpandEventPatterns(&options);  // 'syscalls:sys_enter_*'
  if (!error.empty()) return UsageError(error);
  Setup setup;
  setup.options = &options;
  if (options.multiplex_ms > 0) {
    error = SelectSets(options, &setup);
  } else {
    error = SelectEvents(options, &setup.selection, /*any_number=*/true);
  }
  if (!error.empty()) return UsageError(error);
  Report report;
  report.notes = setup.selection.notes;
  // A session gives each event its own levels; -T's programs have one mode for all.
  bool per_event = false;
  error = ChooseMode(options, setup.selection, &setup.mode, &report.notes,
                     options.multiplex_ms > 0 ? nullptr : &per_event);
  if (!error.empty()) return UsageError(error);
  if (options.system_wide) {
    error = ChooseCpus(options, &setup);
    if (!error.empty()) return UsageError(error);
  }
  if (options.attached()) {
    error = FindTargets(options, &setup.targets);
    if (!error.empty()) return UsageError(error);
    if (options.multiplex_ms > 0 && setup.targets.size() > 1) {
      return UsageError(std::to_string(setup.sets.size()) +
                        " event sets take turns on one target at a time: give one -p PID "
                        "(without --per-thread) or one -t TID, or at most " +
                        std::to_string(MAX_COUNTERS) + " events");
    }
  }

  int fd = STDERR_FILENO;
  tools::OutputFile output_file;  // closed on return
  if (options.output_path == "-") {
    fd = STDOUT_FILENO;  // not /dev/stdout: opening that with O_TRUNC would cut a file short
  } else if (!options.output_path.empty()) {
    // Before the command runs: it is not run (docs/pmcount.1, EXIT STATUS).
    error = output_file.OpenStream(options.output_path);
    if (!error.empty()) return Failure(error);
    fd = output_file.fd();
  }
  Output output(fd, fd == STDERR_FILENO   ? "standard error"
                    : fd == STDOUT_FILENO ? "standard output"
                                          : options.output_path);

  report.command = options.command;
  if (!options.pids.empty()) {
    report.attached =
        (options.pids.size() > 1 ? "processes " : "process ") + FormatIdList(options.pids);
  }
  if (!options.tids.empty()) {
    report.attached += (report.attached.empty() ? "" : " and ") +
                       std::string(options.tids.size() > 1 ? "threads " : "thread ") +
                       FormatIdList(options.tids);
  }
  report.system_wide = options.system_wide;
  report.cpus = FormatCpuList(setup.cpus);
  report.mode = per_event ? "per-event" : ModeName(setup.mode);
  if (setup.selection.group) report.group = setup.selection.group->record.short_name;
  report.aggregation = options.per_thread ? Aggregation::kPerThread : options.aggregation;
  report.multiplex_ms = options.multiplex_ms;
  report.sets = static_cast<int>(setup.sets.size());
  report.stats = options.stats;
  report.summary = options.summary;
  if (options.output_path.empty() || options.output_path == "-") report.rank = LauncherRank();
  report.metric_lines = !options.group.empty();
  std::unique_ptr<Printer> printer;
  switch (options.format) {
    case Format::kHuman:
      printer = MakeHumanPrinter();
      break;
    case Format::kCsv:
      printer = MakeCsvPrinter(options.separator);
      for (const std::string &note : report.notes)
        fprintf(stderr, "pmcount: note: %s\n", note.c_str());
      break;
    case Format::kJson:
      printer = MakeJsonPrinter();
      break;
    case Format::kPerfJson:
      printer = MakePerfJsonPrinter();
      for (const std::string &note : report.notes)
        fprintf(stderr, "pmcount: note: %s\n", note.c_str());
      break;
  }
  // --timeline: its file opened now, before the command runs (125 and not run if it cannot be).
  tools::OutputFile timeline_file;
  TimelinePrinter *timeline = nullptr;
  if (!options.timeline_path.empty()) {
    error = timeline_file.Open(options.timeline_path);
    if (!error.empty()) return Failure(error);
    auto wrapped =
        std::make_unique<TimelinePrinter>(std::move(printer), &timeline_file, options.interval_ms);
    timeline = wrapped.get();
    printer = std::move(wrapped);
  }
  int status = RunSession(setup, &report, printer.get(), &output);
  // As for pmsample's outputs: said, and the status stays the counted command's.
  if (timeline && !timeline->error().empty())
    fprintf(stderr, "pmcount: %s\n", timeline->error().c_str());
  return status;
}

}  // namespace
}  // namespace pmcount

int main(int argc, char **argv) { return pmcount::Main(argc, argv); }
