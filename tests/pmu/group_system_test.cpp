// SPDX-License-Identifier: MIT
// Counting groups and system-wide counting on the emulated PMU: totals of loops in several
// threads, and one CPU's share, exact: differences of two loop lengths, the least of five runs,
// the threads run in one order (InOneOrder, guest_support.h).
#include <gtest/gtest.h>
#include <pthread.h>
#include <sched.h>

#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "guest_support.h"
#include "program_test.h"

using namespace pmu_guest;

namespace {

constexpr int kThreads = 4;

// kThreads threads, each running Loop(n), started and joined.
void LoopInThreads(uint64_t n) {
  std::vector<std::thread> running;
  for (int t = 0; t < kThreads; ++t) running.emplace_back([n] { Loop(n); });
  for (std::thread &thread : running) thread.join();
}

using GroupHardware = ProgramTest<pm_delete_program_mygroup>;

TEST_F(GroupHardware, MyGroupTotalsEveryThreadsLoop) {
  pm_prog_t prog = MakeProgram({EventId("PM_INST_CMPL"), EventId("PM_CYC")}, PM_USER);
  ASSERT_EQ(pm_set_program_mygroup(&prog), 0) << pm_strerror("pm_set_program_mygroup", 0);
  InOneOrder order;
  const LoopRuns runs = RunShortAndLong(MyGroup(), LoopInThreads);
  const long long exact = kThreads * kLoopDifference;
  const std::string what =
      "group totals (_mygroup, " + std::to_string(kThreads) + " threads, user)";
  PrintDifference(what.c_str(), runs, exact);
  EXPECT_NEAR(runs.Difference(0), exact, KernelSlack(exact)) << "PM_INST_CMPL";
  EXPECT_NEAR(runs.Difference(1), exact, KernelSlack(exact)) << "PM_CYC";
}

// The system-wide family counts every CPU; the loop runs pinned to the last CPU, whose own
// count (pm_get_data_cpu, and pm_get_data_lcpu for the same logical CPU) holds it.
TEST(SystemHardware, OneCpuCountsTheLoopPinnedToIt) {
  ASSERT_TRUE(Initialize());
  // The POWER guests boot with one CPU (POWER10 with two soft-locks under -icount): there the
  // one CPU's count and the machine's are the same thing.
  if (!kPower) {
    ASSERT_GE(std::thread::hardware_concurrency(), 2u) << "boot the guest with -smp 2 or more";
  }
  InOneOrder order;  // on the last CPU
  pm_prog_t prog = MakeProgram({EventId("PM_INST_CMPL")}, PM_USER);
  ASSERT_EQ(pm_set_program(&prog), 0) << pm_strerror("pm_set_program", 0);
  struct CpuReads {
    static int Cpu(pm_data_t *data) { return pm_get_data_cpu(Last(), data); }
    static int Lcpu(pm_data_t *data) { return pm_get_data_lcpu(Last(), data); }
    static int Last() { return static_cast<int>(std::thread::hardware_concurrency()) - 1; }
  };
  const Family by_cpu{pm_reset_data, pm_start, pm_stop, CpuReads::Cpu};
  const Family by_lcpu{pm_reset_data, pm_start, pm_stop, CpuReads::Lcpu};
  const Family all{pm_reset_data, pm_start, pm_stop, pm_get_data};
  const long long exact = kLoopDifference;
  LeastCounts(by_cpu, Loop, kShortLoop, 2);
  for (const Family *family : {&by_cpu, &by_lcpu, &all}) {
    const Counts short_run = LeastCounts(*family, Loop, kShortLoop);
    const Counts long_run = LeastCounts(*family, Loop, kLongLoop);
    printf("system-wide (user) %s: %lld and %lld, difference %lld for %lld\n",
           family == &by_cpu    ? "cpu"
           : family == &by_lcpu ? "lcpu"
                                : "all CPUs",
           short_run[0], long_run[0], long_run[0] - short_run[0], exact);
    EXPECT_EQ(long_run[0] - short_run[0], exact) << "PM_INST_CMPL";
  }
  pm_delete_program();
}

}  // namespace
