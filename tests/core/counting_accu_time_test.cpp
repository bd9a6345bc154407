// SPDX-License-Identifier: MIT
// pm_get_Tdata*'s three times, each what it says: accu_timebase the time the counters were
// enabled, accu_purr and accu_spurr the time they ran. A kernel that gave the counters a quarter
// of their enabled time (RewritingKernel, multiplexed 1/4) makes the two differ exactly, so a
// time put in the wrong field shows.
#include <gtest/gtest.h>
#include <unistd.h>

#include "support/counting.h"
#include "support/rewriting_kernel.h"
#include "support/timebase.h"

using namespace pmapi_test;

namespace {

using Mode = RewritingKernel::Mode;

class AccuTime : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!InitializeAll()) return;
    prog_ = MakeProgram({EventId("task-clock")}, PM_USER | PM_KERNEL | PM_COUNT);
  }
  void TearDown() override {
    pmapi::SetKernelForTesting(nullptr);
    pm_delete_program();
    pm_delete_program_mythread();
  }
  // One target's times (no reset: the baselines are zero, so the fields are the kernel's).
  static void ExpectQuarterRan(const pm_accu_time_t &times) {
    const uint64_t enabled = TimebaseNanos(times.accu_timebase);
    EXPECT_GE(enabled, 4000u);
    EXPECT_EQ(TimebaseNanos(times.accu_purr), enabled / 4) << "purr: the time the counters ran";
    EXPECT_EQ(TimebaseNanos(times.accu_spurr), enabled / 4) << "spurr: the same";
  }

  pm_prog_t prog_{};
  RewritingKernel kernel_;
};

TEST_F(AccuTime, MyThreadTimebaseIsEnabledAndPurrIsRunning) {
  ASSERT_EQ(pm_set_program_mythread(&prog_), 0);
  usleep(2000);
  kernel_.Rewrite(Mode::kMultiplexed, -1, 0, 4);
  pmapi::SetKernelForTesting(&kernel_);
  pm_data_t data;
  pm_accu_time_t times;
  EXPECT_EQ(pm_get_Tdata_mythread(&data, &times), Pmapi_Multiplexed);
  ExpectQuarterRan(times);
}

TEST_F(AccuTime, SystemWideCpuTimebaseIsEnabledAndPurrIsRunning) {
  if (geteuid() != 0) GTEST_SKIP() << "system-wide counting needs root or CAP_PERFMON";
  ASSERT_EQ(pm_set_program(&prog_), 0) << pm_strerror("pm_set_program", Pmapi_Permission);
  usleep(2000);
  kernel_.Rewrite(Mode::kMultiplexed, -1, 0, 4);
  pmapi::SetKernelForTesting(&kernel_);
  pm_data_t data;
  pm_accu_time_t times;
  EXPECT_EQ(pm_get_Tdata_cpu(0, &data, &times), Pmapi_Multiplexed)
      << pm_strerror("pm_get_Tdata_cpu", Pmapi_CpuNotCounted);
  ExpectQuarterRan(times);
}

}  // namespace
