// Stress: the system-wide context set, read and deleted 1,000 times (one group per CPU each
// time). Afterwards the process has the descriptors and, within a tolerance, the resident
// memory it had before. Registered with the label "stress" by tests/stress_tests.cmake.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <string>

#include "stress_process.h"
#include "support/counting.h"

using namespace pmapi_test;

namespace {

int Rounds() {
  const char *text = getenv("PMAPI_STRESS_ROUNDS");
  return text && atoi(text) > 0 ? atoi(text) : 1000;
}

// Returns "" or what failed.
std::string Cycle(pm_prog_t *prog) {
  int rc = pm_set_program(prog);
  if (rc != 0) return pm_strerror("pm_set_program", rc);
  pm_data_t data;
  if ((rc = pm_get_data(&data)) != 0) return pm_strerror("pm_get_data", rc);
  if ((rc = pm_get_data_cpu(0, &data)) != 0) return pm_strerror("pm_get_data_cpu", rc);
  if ((rc = pm_delete_program()) != 0) return pm_strerror("pm_delete_program", rc);
  return "";
}

TEST(StressSystem, SetReadDeleteAThousandTimes) {
  ASSERT_TRUE(InitializeAll());
  pm_prog_t prog =
      MakeProgram({EventId(kGetppid), EventId("task-clock")}, PM_USER | PM_KERNEL | PM_COUNT);
  for (int i = 0; i < 5; ++i) ASSERT_EQ(Cycle(&prog), "") << "warm-up";
  const ProcessFootprint before = MeasureFootprint();
  const int rounds = Rounds();
  for (int round = 0; round < rounds; ++round) {
    const std::string failure = Cycle(&prog);
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
