// SPDX-License-Identifier: MIT
// What the counting core does when the kernel misbehaves, through the kernel
// seam: a group it cannot schedule (0-byte read), multiplexing, a short read,
// a failed open in the middle of a group. Never wrong numbers in silence,
// never a leaked descriptor or a half-built context.
#include <errno.h>
#include <gtest/gtest.h>
#include <stdint.h>

#include <string>

#include "support/counting.h"
#include "support/counting_fixture.h"
#include "support/fake_kernel.h"
#include "support/rewriting_kernel.h"
#include "support/timebase.h"

using namespace pmapi_test;

namespace {

using Mode = RewritingKernel::Mode;

class Faults : public GetppidTest {
 protected:
  void AfterInitialize() override { clock_ = EventId("task-clock"); }
  void TearDown() override { pm_delete_program_mythread(); }
  int clock_ = COUNT_NOTHING;
  RewritingKernel kernel_;
};

TEST_F(Faults, UnschedulableGroupIsReportedNotZero) {
  ScopedKernel scoped(&kernel_);
  pm_prog_t prog = MakeProgram({getppid_, clock_}, PM_USER | PM_COUNT);
  ASSERT_EQ(pm_set_program_mythread(&prog), 0);
  kernel_.Rewrite(Mode::kZeroBytes);
  pm_data_t data;
  EXPECT_EQ(pm_get_data_mythread(&data), Pmapi_NotSchedulable);
  EXPECT_NE(std::string(pm_strerror("", Pmapi_NotSchedulable)).find("fewer events"),
            std::string::npos);
  kernel_.Rewrite(Mode::kShort);
  EXPECT_EQ(pm_get_data_mythread(&data), Pmapi_ShortRead);
  kernel_.Rewrite(Mode::kPass);
  EXPECT_EQ(pm_get_data_mythread(&data), 0) << "the context is still usable";
}

TEST_F(Faults, MultiplexedCountsAreFilledAndFlagged) {
  ScopedKernel scoped(&kernel_);
  pm_prog_t prog = MakeProgram({getppid_, clock_}, PM_USER | PM_COUNT);
  ASSERT_EQ(pm_set_program_mythread(&prog), 0);
  CallGetppid(10);
  kernel_.Rewrite(Mode::kMultiplexed, -1, 0, 2);  // running: half the time enabled
  pm_data_t data;
  pm_accu_time_t times;
  EXPECT_EQ(pm_get_Tdata_mythread(&data, &times), Pmapi_Multiplexed);
  EXPECT_EQ(data.accu[0], 10) << "raw counts, not scaled";
  EXPECT_NE(std::string(pm_strerror("", Pmapi_Multiplexed)).find("50"), std::string::npos)
      << "the message gives the share of time counted";
  const uint64_t enabled = TimebaseNanos(times.accu_timebase);
  const uint64_t running = TimebaseNanos(times.accu_purr);
  EXPECT_LT(running, enabled);
}

TEST_F(Faults, FailedOpenInTheMiddleLeavesNothingBehind) {
  ScopedKernel scoped(&kernel_);
  const int before = CountPerfDescriptors();
  int opens = 0;
  kernel_.SetPerfEventOpenHook([&](const perf_event_attr &) { return ++opens == 2 ? EMFILE : 0; });
  pm_prog_t prog = MakeProgram({getppid_, clock_}, PM_USER | PM_COUNT);
  EXPECT_EQ(pm_set_program_mythread(&prog), Pmapi_TooManyFiles);
  std::string message = pm_strerror("", Pmapi_TooManyFiles);
  EXPECT_NE(message.find("task-clock"), std::string::npos) << message;
  EXPECT_NE(message.find("counter 1"), std::string::npos) << message;
  EXPECT_NE(message.find("ulimit"), std::string::npos) << message;
  EXPECT_EQ(CountPerfDescriptors(), before) << "the leader opened first was closed";
  pm_data_t data;
  EXPECT_EQ(pm_get_data_mythread(&data), Pmapi_NoSetProg) << "no half-built context";
  kernel_.SetPerfEventOpenHook(nullptr);
  EXPECT_EQ(pm_set_program_mythread(&prog), 0) << "a later set works";
}

TEST_F(Faults, KernelRefusalsBecomeCodesThatSayWhy) {
  ScopedKernel scoped(&kernel_);
  pm_prog_t prog = MakeProgram({getppid_}, PM_USER);
  const struct {
    int err;
    int code;
    const char *says;
  } cases[] = {
      {EACCES, Pmapi_Permission, "perf_event_paranoid"},
      {EPERM, Pmapi_Permission, "CAP_PERFMON"},
      {ENOENT, Pmapi_NoHardware, "PMU"},
      {EOPNOTSUPP, Pmapi_NoHardware, "software events"},
      {ENOMEM, Pmapi_Malloc_Err, "memory"},
      {EBUSY, Pmapi_Busy, "exclusively"},
      {EINVAL, Pmapi_KernelError, "EINVAL"},
  };
  for (const auto &c : cases) {
    kernel_.Clear();
    kernel_.FailWith(FakeKernel::Op::kPerfEventOpen, c.err);
    EXPECT_EQ(pm_set_program_mythread(&prog), c.code) << strerror(c.err);
    std::string message = pm_strerror("set", c.code);
    EXPECT_NE(message.find(c.says), std::string::npos) << message;
    EXPECT_NE(message.find(kGetppid), std::string::npos) << "names the event: " << message;
  }
  kernel_.Clear();
  ASSERT_EQ(pm_set_program_mythread(&prog), 0);
  kernel_.FailWith(FakeKernel::Op::kIoctl, EINTR);
  EXPECT_EQ(pm_start_mythread(), Pmapi_Interrupted);
  pm_prog_t got;
  ASSERT_EQ(pm_get_program_mythread(&got), 0);
  EXPECT_FALSE(got.mode.b.count) << "a failed start leaves counting off";
}

}  // namespace
