// SPDX-License-Identifier: MIT
// libhpm's section overhead: hpmStart+hpmStop of one section, counting the
// same four software events as BM_StartStop_Pmapi, whose pm_start_mythread +
// pm_stop_mythread pair is the peer (target: at most 1.2x).
#include <benchmark/benchmark.h>
#include <libhpm.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <string>

#include "raw_group.h"

namespace {

void BM_HpmStartStop(benchmark::State &state) {
  std::string events;
  for (int i = 0; i < 4; ++i) events += (i ? "," : "") + EightSoftwareEventNames()[i];
  setenv("HPM_EVENT_SET", events.c_str(), 1);
  // The report goes to /tmp and is removed: a benchmark leaves no files.
  std::string base = "/tmp/hpm_bench." + std::to_string(getpid()) + ".";
  setenv("HPM_OUTPUT_NAME", base.c_str(), 1);
  hpmInit(0, "hpm_bench");
  hpmStart(1, "warm-up");  // the section's first use describes it: not measured
  hpmStop(1);
  for (auto _ : state) {
    hpmStart(1, "bench");
    hpmStop(1);
  }
  hpmTerminate(0);
  std::string report = base + "0." + std::to_string(getpid());
  remove(report.c_str());
  remove((report + ".json").c_str());
  unsetenv("HPM_EVENT_SET");
  unsetenv("HPM_OUTPUT_NAME");
}
BENCHMARK(BM_HpmStartStop);

}  // namespace
