// SPDX-License-Identifier: MIT
#include "guest_support.h"

#include <gtest/gtest.h>
#include <stdio.h>
#include <string.h>

#include <algorithm>
#include <climits>
#include <fstream>

#include "pmapi_catalog.h"

namespace pmu_guest {

bool Initialize() {
  pm_info2_t info;
  const int rc = pm_initialize(PM_VERIFIED | PM_UNVERIFIED | PM_CAVEAT, &info, nullptr, PM_CURRENT);
  EXPECT_EQ(rc, 0) << pm_strerror("pm_initialize", rc);
  return rc == 0;
}

int EventId(const std::string &name) {
  int id = COUNT_NOTHING;
  const int rc = pm_catalog_add_event(name.c_str(), &id);
  EXPECT_EQ(rc, 0) << name << ": " << pm_strerror("pm_catalog_add_event", rc);
  return rc == 0 ? id : COUNT_NOTHING;
}

Family MyThread() {
  return {pm_reset_data_mythread, pm_start_mythread, pm_stop_mythread, pm_get_data_mythread};
}

Family MyGroup() {
  return {pm_reset_data_mygroup, pm_start_mygroup, pm_stop_mygroup, pm_get_data_mygroup};
}

Counts LeastCounts(const Family &family, void (*work)(uint64_t), uint64_t n, int runs) {
  Counts least;
  least.fill(LLONG_MAX);
  for (int run = 0; run < runs; ++run) {
    pm_data_t data;
    int rc = family.reset();
    if (rc == 0) rc = family.start();
    work(n);
    if (rc == 0) rc = family.stop();
    if (rc == 0) rc = family.read(&data);
    if (rc != 0) {
      ADD_FAILURE() << pm_strerror("counting around the loop", rc);
      least.fill(-1);
      return least;
    }
    for (int counter = 0; counter < MAX_COUNTERS; ++counter) {
      least[counter] = std::min(least[counter], data.accu[counter]);
    }
  }
  return least;
}

LoopRuns RunShortAndLong(const Family &family, void (*work)(uint64_t)) {
  LeastCounts(family, work, kShortLoop, 2);  // warm-up
  LoopRuns runs;
  runs.short_run = LeastCounts(family, work, kShortLoop);
  runs.long_run = LeastCounts(family, work, kLongLoop);
  return runs;
}

void PrintDifference(const char *what, const LoopRuns &runs, long long exact) {
  printf("%s: %lld and %lld, difference %lld for %lld\n", what, runs.short_run[0], runs.long_run[0],
         runs.Difference(0), exact);
}

std::string PfmTable() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line)) {
    // "cpu : POWER9 (architected), altivec supported"
    if (line.compare(0, 3, "cpu") == 0 && line.find(':') != std::string::npos) {
      const std::string model = line.substr(line.find(':') + 2);
      if (model.compare(0, 7, "POWER10") == 0) return "power10";  // -cpu power10
      if (model.compare(0, 6, "POWER9") == 0) return "power9";    // -cpu power9
      if (model.compare(0, 6, "POWER8") == 0) return "power8";
      return "";
    }
    if (line.compare(0, 8, "CPU part") != 0) continue;
    const unsigned long part = strtoul(line.substr(line.find(':') + 1).c_str(), nullptr, 0);
    switch (part) {
      case 0xd07:
        return "arm_ac57";  // -cpu cortex-a57
      case 0xd0c:
        return "arm_n1";  // -cpu neoverse-n1
      default:
        return "";
    }
  }
  return "";
}

InOneOrder::InOneOrder() {
  sched_getparam(0, &saved_param_);
  saved_policy_ = sched_getscheduler(0);
  sched_param fifo = {};
  fifo.sched_priority = 1;
  EXPECT_EQ(sched_setscheduler(0, SCHED_FIFO, &fifo), 0) << "SCHED_FIFO needs root";
}

InOneOrder::~InOneOrder() { sched_setscheduler(0, saved_policy_, &saved_param_); }

std::string RunCommand(const std::string &command) {
  std::string output;
  FILE *pipe = popen((command + " 2>&1").c_str(), "r");
  if (!pipe) return output;
  char buffer[4096];
  size_t n;
  while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0) output.append(buffer, n);
  pclose(pipe);
  return output;
}

int CountersAvailable() {
  if (kPower) return PfmTable().empty() ? 0 : 6;
  // The kernel log line of the armv8_pmuv3 driver; /dev/kmsg is readable by root.
  FILE *log = popen("dmesg", "r");
  if (!log) return 0;
  char line[512];
  int counters = 0;
  while (fgets(line, sizeof line, log)) {
    const char *at = strstr(line, "PMU driver, ");
    if (at) counters = atoi(at + strlen("PMU driver, "));
  }
  pclose(log);
  return counters;
}

}  // namespace pmu_guest
