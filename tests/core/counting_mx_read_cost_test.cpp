// SPDX-License-Identifier: MIT
// What a multiplexed read costs the kernel: a set that is not counting is disabled, so its
// counts cannot move, and pm_get_data*_mx reads only the counting set's groups (the others'
// totals were taken when they stopped). Checked with a simulated perf kernel that counts
// group reads; counting_mx_rotation_test checks the values, exact, through the same path.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <atomic>

#include "core/multiplexer.h"
#include "core/registry.h"
#include "support/counting.h"
#include "support/hand_driven_mx.h"
#include "support/simulated_perf_kernel.h"

using namespace pmapi_test;

namespace {

class CountingReads : public SimulatedPerfKernel {
 public:
  ssize_t Read(int fd, void *buf, size_t size) override {
    ++reads;
    return SimulatedPerfKernel::Read(fd, buf, size);
  }
  std::atomic<int> reads{0};
};

class MxReadCost : public HandDrivenMx {
 protected:
  void AfterInitialize() override {
    const int a = EventId("cpu-migrations"), b = EventId("task-clock");
    ClearSets(sets_, 2);
    sets_[0][0] = a;
    sets_[1][0] = a, sets_[1][1] = b;
    pmapi::SetKernelForTesting(&kernel_);
    pm_prog_mx_t prog = MxProgram(sets_, 2, PM_USER | PM_COUNT);
    ASSERT_EQ(pm_set_program_mythread_mx(&prog), 0);
  }
  // One _mx read: how many group reads it made, and its sets' first counts and times.
  int Read(long long counts[2], uint64_t *times = nullptr) {
    pm_data_mx_t data = {};
    const int before = kernel_.reads;
    EXPECT_EQ(pm_get_data_mythread_mx(&data), 0);
    const int made = kernel_.reads - before;
    EXPECT_EQ(data.nb_accu_mx, 2);
    for (int k = 0; k < 2 && data.accu_set; ++k) {
      counts[k] = data.accu_set[k].accu_data[0];
      if (times) times[k] = data.accu_set[k].accu_time.tb_low;
    }
    free(data.accu_set);
    return made;
  }

  CountingReads kernel_;
  pm_events_prog_t sets_[2];
};

TEST_F(MxReadCost, OnlyTheCountingSetIsRead) {
  long long first[2], second[2];
  EXPECT_EQ(Read(first), 1) << "set 1 is disabled: its totals need no read";
  EXPECT_EQ(first[1], 0);
  EXPECT_EQ(Read(second), 1);
  EXPECT_GT(second[0], first[0]) << "set 0 counts (the simulated events grow per read)";

  ASSERT_TRUE(Mx()->Switch().ok());  // set 1 counts, set 0 stops
  long long third[2], fourth[2];
  EXPECT_EQ(Read(third), 1);
  EXPECT_EQ(Read(fourth), 1);
  EXPECT_EQ(third[0], fourth[0]) << "a disabled set keeps its count";
  EXPECT_GE(third[0], second[0]);
  EXPECT_GT(fourth[1], third[1]) << "set 1 counts now";
}

TEST_F(MxReadCost, ResetZeroesTheFrozenSets) {
  ASSERT_TRUE(Mx()->Switch().ok());
  ASSERT_TRUE(Mx()->Switch().ok());
  long long counts[2];
  uint64_t times[2];
  Read(counts, times);
  ASSERT_EQ(pm_reset_data_mythread(), 0);
  EXPECT_EQ(Read(counts, times), 1);
  EXPECT_EQ(counts[1], 0) << "set 1 was reset while disabled";
  EXPECT_EQ(times[1], 0u);
}

}  // namespace
