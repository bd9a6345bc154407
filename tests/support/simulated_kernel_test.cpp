// SPDX-License-Identifier: MIT
// The in-memory perf kernel the set-program fuzzer runs on (support/simulated_perf_kernel.h):
// the library must work on it as on the real one, and it must refuse what the kernel refuses,
// or the fuzzer would explore paths that do not exist.
#include <errno.h>
#include <gtest/gtest.h>
#include <sys/ioctl.h>

#include "support/counting.h"
#include "support/fake_kernel.h"
#include "support/simulated_perf_kernel.h"

using namespace pmapi_test;

namespace {

class Simulated : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!InitializeAll()) return;
  }
  SimulatedPerfKernel kernel_;
};

TEST_F(Simulated, TheLibraryCountsThroughItWithoutRealDescriptors) {
  const int real_before = CountPerfDescriptors();
  ScopedKernel scoped(&kernel_);
  pm_prog_t prog = MakeProgram({EventId(kGetppid), EventId("task-clock")}, PM_USER | PM_KERNEL);
  ASSERT_EQ(pm_set_program_mythread(&prog), 0);
  EXPECT_EQ(kernel_.LibraryDescriptors(), 2);
  EXPECT_EQ(CountPerfDescriptors(), real_before) << "no real descriptor was opened";
  pm_data_t data;
  ASSERT_EQ(pm_get_data_mythread(&data), 0);
  EXPECT_EQ(data.accu[0], 0) << "set without PM_COUNT: disabled";
  ASSERT_EQ(pm_start_mythread(), 0);
  ASSERT_EQ(pm_get_data_mythread(&data), 0);
  EXPECT_EQ(data.accu[0], 1) << "one more per read while enabled";
  EXPECT_EQ(data.accu[1], 1);
  ASSERT_EQ(pm_stop_mythread(), 0);
  ASSERT_EQ(pm_get_data_mythread(&data), 0);
  EXPECT_EQ(data.accu[0], 1) << "stopped: no more";
  ASSERT_EQ(pm_reset_data_mythread(), 0);
  ASSERT_EQ(pm_get_data_mythread(&data), 0);
  EXPECT_EQ(data.accu[0], 0);
  ASSERT_EQ(pm_delete_program_mythread(), 0);
  EXPECT_EQ(kernel_.LibraryDescriptors(), 0);
}

TEST_F(Simulated, RefusesWhatTheKernelRefuses) {
  perf_event_attr attr{};
  attr.size = sizeof attr;
  attr.type = PERF_TYPE_SOFTWARE;
  attr.config = PERF_COUNT_SW_TASK_CLOCK;
  attr.read_format = PERF_FORMAT_GROUP;
  EXPECT_EQ(kernel_.PerfEventOpen(attr, -1, -1, -1), -EINVAL) << "no pid and no CPU";
  EXPECT_EQ(kernel_.PerfEventOpen(attr, 0, -1, 12345), -EBADF) << "no such leader";
  const int leader = kernel_.PerfEventOpen(attr, 0, -1, -1);
  ASSERT_GE(leader, SimulatedPerfKernel::kFirstFd);
  const int member = kernel_.PerfEventOpen(attr, 0, -1, leader);
  ASSERT_GT(member, leader);
  EXPECT_EQ(kernel_.PerfEventOpen(attr, 0, -1, member), -EINVAL) << "a member cannot lead";
  EXPECT_EQ(kernel_.PerfEventOpen(attr, 0, 0, leader), -EINVAL) << "leader on another target";
  attr.type = PERF_TYPE_HARDWARE;
  EXPECT_EQ(kernel_.PerfEventOpen(attr, 0, -1, -1), -ENOENT) << "no hardware PMU";
  uint64_t words[3];
  EXPECT_EQ(kernel_.Read(leader, words, sizeof words - 8), -ENOSPC) << "nr + 2 values";
  EXPECT_EQ(kernel_.Read(leader, words, sizeof words), 24);
  EXPECT_EQ(words[0], 2u);
  EXPECT_EQ(kernel_.Ioctl(member, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP), -EINVAL);
  EXPECT_EQ(kernel_.Ioctl(leader, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP), 0);
  EXPECT_EQ(kernel_.Close(leader), 0);
  EXPECT_EQ(kernel_.Close(leader), -EBADF);
  EXPECT_EQ(kernel_.Ioctl(member, PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP), 0)
      << "a member whose leader closed leads itself";
  EXPECT_EQ(kernel_.Close(member), 0);
  EXPECT_EQ(kernel_.OpenDescriptors(), 0);
}

}  // namespace
