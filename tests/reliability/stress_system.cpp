// SPDX-License-Identifier: MIT
// Stress: the system-wide context set, read and deleted 1,000 times (one group per CPU each
// time), each cycle counting 7 calls exactly. Afterwards the process has the descriptors and,
// within a tolerance, the resident memory it had before. Registered with the label "stress" by
// tests/reliability/CMakeLists.txt.
#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <string>

#include "stress_process.h"
#include "support/counting.h"

using namespace pmapi_test;

namespace {

int Rounds() {
  const char *text = getenv("PMAPI_STRESS_ROUNDS");
  return text && atoi(text) > 0 ? atoi(text) : 1000;
}

// Returns "" or what failed: a code, or a count that is not exactly the calls made. The rare
// system call is counted exactly machine-wide (support/counting.h).
std::string Cycle(pm_prog_t *prog, int cpus) {
  int rc = pm_set_program(prog);
  if (rc != 0) return pm_strerror("pm_set_program", rc);
  CallRareSyscall(7);
  if ((rc = pm_stop()) != 0) return pm_strerror("pm_stop", rc);
  pm_data_t data;
  if ((rc = pm_get_data(&data)) != 0) return pm_strerror("pm_get_data", rc);
  if (data.accu[0] != 7) return "pm_get_data counted " + std::to_string(data.accu[0]) + " of 7";
  long long sum = 0;
  for (int cpu = 0; cpu < cpus; ++cpu) {
    if ((rc = pm_get_data_cpu(cpu, &data)) != 0) return pm_strerror("pm_get_data_cpu", rc);
    sum += data.accu[0];
  }
  if (sum != 7) return "the CPUs' counts add up to " + std::to_string(sum) + ", not 7";
  if ((rc = pm_delete_program()) != 0) return pm_strerror("pm_delete_program", rc);
  return "";
}

TEST(StressSystem, SetReadDeleteAThousandTimes) {
  if (geteuid() != 0) GTEST_SKIP() << "system-wide counting needs root or CAP_PERFMON";
  if (!InitializeAll()) return;
  pm_prog_t prog =
      MakeProgram({EventId(kRareSyscall), EventId("task-clock")}, PM_USER | PM_KERNEL | PM_COUNT);
  const int cpus = static_cast<int>(sysconf(_SC_NPROCESSORS_ONLN));
  for (int i = 0; i < 5; ++i) ASSERT_EQ(Cycle(&prog, cpus), "") << "warm-up";
  const ProcessFootprint before = MeasureFootprint();
  const int rounds = Rounds();
  for (int round = 0; round < rounds; ++round) {
    const std::string failure = Cycle(&prog, cpus);
    ASSERT_EQ(failure, "") << "round " << round;
  }
  const ProcessFootprint after = MeasureFootprint();
  printf("stress_system: %d rounds; descriptors %d -> %d (perf %d -> %d); VmRSS %ld -> %ld KiB\n",
         rounds, before.descriptors, after.descriptors, before.perf_descriptors,
         after.perf_descriptors, before.rss_kib, after.rss_kib);
  EXPECT_EQ(after.descriptors, before.descriptors);
  EXPECT_EQ(after.perf_descriptors, 0);
  ExpectRssBackAtBaseline(before, after, kRssToleranceKiB);
}

}  // namespace
