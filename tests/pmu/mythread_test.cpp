// SPDX-License-Identifier: MIT
// The first-party thread family on the emulated PMU: a user-mode count of a loop is exact.
#include <gtest/gtest.h>

#include <cstdio>

#include "guest_support.h"
#include "program_test.h"

using namespace pmu_guest;

namespace {

using MyThreadHardware = ProgramTest<pm_delete_program_mythread>;

// Two loop lengths, the difference of their counts: whatever the calls around the loop cost is
// the same in both and cancels. The first runs of a path cost more (lazy binding): warm up.
TEST_F(MyThreadHardware, UserModeInstructionsAndCyclesOfALoopAreExact) {
  pm_prog_t prog = MakeProgram({EventId("PM_INST_CMPL"), EventId("PM_CYC")}, PM_USER);
  ASSERT_EQ(pm_set_program_mythread(&prog), 0) << pm_strerror("pm_set_program_mythread", 0);
  const LoopRuns runs = RunShortAndLong(MyThread(), Loop);
  printf("loop instructions (_mythread, user): %llu iterations %lld, %llu iterations %lld\n",
         static_cast<unsigned long long>(kShortLoop), runs.short_run[0],
         static_cast<unsigned long long>(kLongLoop), runs.long_run[0]);
  ASSERT_GT(runs.short_run[0], 0);
  EXPECT_EQ(runs.Difference(0), kLoopDifference) << "PM_INST_CMPL";
  // -icount shift=0: one cycle an instruction.
  EXPECT_EQ(runs.Difference(1), kLoopDifference) << "PM_CYC";
}

// Stopped counters count nothing more; a reset starts again from zero.
TEST_F(MyThreadHardware, StopHoldsTheCountAndResetClearsIt) {
  pm_prog_t prog = MakeProgram({EventId("PM_INST_CMPL")}, PM_USER);
  ASSERT_EQ(pm_set_program_mythread(&prog), 0) << pm_strerror("pm_set_program_mythread", 0);
  // The stop, then as many iterations again as `after_stop` says: 0 once, the whole loop once.
  // The same instructions run up to the stop both times, so the counts must be equal.
  static uint64_t after_stop = 0;
  Family stop_then_loop = MyThread();
  stop_then_loop.stop = [] {
    const int rc = pm_stop_mythread();
    if (after_stop != 0) Loop(after_stop);
    return rc;
  };
  LeastCounts(stop_then_loop, Loop, kShortLoop, 2);
  const long long alone = LeastCounts(stop_then_loop, Loop, kLongLoop)[0];
  after_stop = kLongLoop;
  const long long least = LeastCounts(stop_then_loop, Loop, kLongLoop)[0];
  EXPECT_EQ(least, alone);
  ASSERT_EQ(pm_reset_data_mythread(), 0);
  pm_data_t data;
  ASSERT_EQ(pm_get_data_mythread(&data), 0);
  EXPECT_EQ(data.accu[0], 0);
}

// Kernel mode counts what the kernel runs for the thread (the calls' system calls), never the
// user-mode loop: its count does not grow with the loop.
TEST_F(MyThreadHardware, KernelModeDoesNotCountTheUserLoop) {
  if (kPower) GTEST_SKIP() << "the emulated POWER PMU counts every mode whatever the mode bits";
  pm_prog_t prog = MakeProgram({EventId("PM_INST_CMPL")}, PM_KERNEL);
  ASSERT_EQ(pm_set_program_mythread(&prog), 0) << pm_strerror("pm_set_program_mythread", 0);
  const LoopRuns runs = RunShortAndLong(MyThread(), Loop);
  printf("kernel-mode instructions around the loop: %lld and %lld\n", runs.short_run[0],
         runs.long_run[0]);
  EXPECT_GT(runs.short_run[0], 0) << "the stop's own system call runs in the kernel";
  EXPECT_LT(runs.Difference(0), kLoopDifference / 100);
}

}  // namespace
