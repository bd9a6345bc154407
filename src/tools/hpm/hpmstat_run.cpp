// SPDX-License-Identifier: MIT
#include "hpm_run.h"

#include <signal.h>
#include <stdio.h>
#include <sys/time.h>

#include <memory>

#include "count_options.h"
#include "count_rows.h"
#include "destination.h"
#include "pmapi_counting.h"
#include "session_counting.h"
#include "set_results.h"
#include "stopped_command.h"
#include "tool_messages.h"
#include "topology/cpu_map.h"

namespace aix {
namespace {

constexpr int kFailed = 125;

using tools::Sample;

// The topology's CPU map of the CPUs online now; empty when the kernel does not say.
std::vector<int> OnlineCpus() {
  pmapi::CpuMap online;
  if (!pmapi::CpuMap::Online(pmapi::Topology(), &online).ok()) return {};
  return online.linux_cpus();
}

std::string RealTimeStamp() {
  struct timeval now;
  gettimeofday(&now, nullptr);
  char text[64];
  snprintf(text, sizeof text, "%ld.%06ld", static_cast<long>(now.tv_sec),
           static_cast<long>(now.tv_usec));
  return text;
}

}  // namespace

int RunHpmstat(const HpmOptions &options, const Prepared &prepared) {
  if (!options.wpar.empty() && options.wpar != "ALL") {
    return tools::UsageError("hpmstat", "-@ " + options.wpar +
                                            ": Linux has no workload partitions; -@ ALL counts "
                                            "the whole machine");
  }
  Programs programs;
  std::string error = MakePrograms(prepared, &programs);
  if (!error.empty()) {
    fprintf(stderr, "hpmstat: %s\n", error.c_str());
    return kFailed;
  }
  const std::vector<int> cpus = OnlineCpus();
  if (cpus.empty()) {
    fprintf(stderr, "hpmstat: cannot read the online CPUs from /sys/devices/system/cpu/online\n");
    return kFailed;
  }
  Destination out;
  if (!out.Open(options.output, &error)) {
    fprintf(stderr, "hpmstat: %s\n", error.c_str());
    return kFailed;
  }
  std::unique_ptr<tools::Counting> counting;
  tools::SessionPlaces places;
  places.cpus = cpus;  // read per CPU, summed into the report
  const int rc = ArmPrograms(
      &programs, "hpmstat", "pm_set_program",
      [&](const pm_prog_mx_t &mx) {
        return tools::CountSystemWideMx(mx, cpus, /*on=*/true, &counting);
      },
      places, &counting);
  if (rc != 0) return kFailed;
  tools::BlockWaitedSignals();
  // A reader gone from the pipe ends the reports with a message and 125, not a silent death.
  signal(SIGPIPE, SIG_IGN);
  const size_t sets = programs.multiplexed ? prepared.sets.size() : 1;
  std::vector<Sample> previous(sets * cpus.size());
  const uint64_t interval_ns =
      static_cast<uint64_t>(options.interval) * (options.microseconds ? 1000u : 1000000000u);
  for (long i = 0; options.count == 0 || i < options.count; ++i) {
    const uint64_t begin = tools::NowNs();
    const int signal = tools::WaitLoop(nullptr, begin + interval_ns, 0, [] { return true; }, {});
    const uint64_t end = tools::NowNs();
    std::vector<Sample> now(sets * cpus.size());
    if (counting) {
      const int read = counting->Read(&now);
      if (read != 0) {
        for (Sample &sample : now) sample.rc = read;
      }
    }
    std::vector<Sample> delta(now.size());
    for (size_t s = 0; s < now.size(); ++s) delta[s] = tools::Difference(now[s], previous[s]);
    previous = now;
    HpmReport report = BaseReport(options, prepared, programs.multiplexed);
    report.wall_seconds = static_cast<double>(end - begin) / 1e9;
    if (options.timestamps) report.timestamp = RealTimeStamp();
    report.sets = Results(prepared, programs, delta, cpus.size(), report.wall_seconds);
    const std::string estimates = EstimatesNote(delta);
    if (!estimates.empty()) report.notes.push_back(estimates);
    error = out.Write(FormatReport(report));
    if (!error.empty()) {
      fprintf(stderr, "hpmstat: %s\n", error.c_str());
      return kFailed;
    }
    if (signal != 0) break;  // interrupted: the partial interval is reported, then stop
  }
  if (counting) counting->Delete();
  return 0;
}

}  // namespace aix
