// SPDX-License-Identifier: MIT
// What a read returns when the kernel's answer is not a full, honest group reading, on every
// family: a 0-byte read (the group is not schedulable), a short read, time_running <
// time_enabled (multiplexed); and, system-wide, a CPU that goes offline between set and read,
// as the kernel shows it (its counters freeze) and as a failing read (ENODEV, 0 bytes). Each
// case checks the code, a message naming the target, no descriptor leaked, and that the family
// keeps working. counting_faults_test.cpp pins the _mythread basics; this file widens them.
#include <errno.h>
#include <gtest/gtest.h>
#include <stdint.h>
#include <string.h>

#include <map>
#include <mutex>
#include <string>
#include <thread>

#include "reliability_families.h"
#include "support/counting.h"
#include "support/cpu_numbers.h"
#include "support/fake_kernel.h"
#include "support/rewriting_kernel.h"

using namespace pmapi_test;

namespace {

using Mode = RewritingKernel::Mode;

class Reads : public FamilyFaultTest<FamilyKind> {
 protected:
  // Sets a counting program with two events under the rewriting kernel.
  void SetCounting(Family *family) {
    pm_prog_t prog = MakeProgram({getppid_, clock_}, PM_USER | PM_KERNEL | PM_COUNT);
    ASSERT_EQ(family->Set(&prog), 0) << pm_strerror("set", Pmapi_Permission);
  }

  // The family's read fails with `rc`, and its message says `phrase` and names the target.
  void ExpectReadRefused(Family *family, int rc, const std::string &phrase) {
    pm_data_t data;
    pm_accu_time_t times;
    EXPECT_EQ(family->Read(&data, &times), rc);
    const std::string message = pm_strerror("read", rc);
    EXPECT_NE(message.find(phrase), std::string::npos) << message;
    EXPECT_NE(message.find(family->TargetWord()), std::string::npos) << message;
  }

  // After a rewritten read: the family resets and counts its target's calls exactly again
  // (system-wide: at least them), then deletes, leaving nothing.
  void ExpectRecovers(Family *family) {
    kernel_.Rewrite(Mode::kPass);
    pm_data_t data;
    pm_accu_time_t times;
    EXPECT_EQ(family->Reset(), 0) << pm_strerror("reset", Pmapi_KernelError);
    pm_prog_t prog;
    ASSERT_EQ(family->GetProgram(&prog), 0);
    if (!prog.mode.b.count) {
      ASSERT_EQ(family->Start(), 0) << "a test that stopped it";
    }
    family->TargetCalls(9);
    EXPECT_EQ(family->Read(&data, &times), 0) << pm_strerror("read", Pmapi_KernelError);
    if (family->kind() == FamilyKind::kSystem) {
      EXPECT_GE(data.accu[0], 9);
    } else {
      EXPECT_EQ(data.accu[0], 9) << "counting again after the fault";
    }
    EXPECT_EQ(family->Delete(), 0);
    EXPECT_EQ(CountPerfDescriptors(), baseline_fds_);
  }

  RewritingKernel kernel_;
};

TEST_P(Reads, ZeroBytesIsNotSchedulable) {
  Family family(GetParam());
  ScopedKernel scoped(&kernel_);
  SetCounting(&family);
  kernel_.Rewrite(Mode::kZeroBytes);
  ExpectReadRefused(&family, Pmapi_NotSchedulable, "could not schedule the ");
  EXPECT_EQ(family.Reset(), Pmapi_NotSchedulable) << "reset reads too, and keeps its baseline";
  ExpectRecovers(&family);
}

TEST_P(Reads, ShortReadIsReportedNotHalfFilled) {
  Family family(GetParam());
  ScopedKernel scoped(&kernel_);
  SetCounting(&family);
  kernel_.Rewrite(Mode::kShort);
  ExpectReadRefused(&family, Pmapi_ShortRead, " bytes from the counters on ");
  ExpectRecovers(&family);
}

TEST_P(Reads, MultiplexedIsFilledUnscaledAndFlagged) {
  Family family(GetParam());
  ScopedKernel scoped(&kernel_);
  SetCounting(&family);
  family.TargetCalls(40);
  kernel_.Rewrite(Mode::kMultiplexed);
  pm_data_t data;
  pm_accu_time_t times;
  EXPECT_EQ(family.Read(&data, &times), Pmapi_Multiplexed);
  if (GetParam() == FamilyKind::kSystem) {
    EXPECT_GE(data.accu[0], 40) << "raw, not scaled (machine-wide: others' calls too)";
  } else {
    EXPECT_EQ(data.accu[0], 40) << "raw, not scaled";
  }
  const std::string message = pm_strerror("read", Pmapi_Multiplexed);
  EXPECT_NE(message.find("25.0%"), std::string::npos) << "the share counted: " << message;
  EXPECT_LE(Nanos(times.accu_purr), Nanos(times.accu_timebase));
  ExpectRecovers(&family);
}

TEST_P(Reads, FailedReadKeepsTheContext) {
  Family family(GetParam());
  ScopedKernel scoped(&kernel_);
  SetCounting(&family);
  kernel_.Rewrite(Mode::kFail, -1, EIO);
  ExpectReadRefused(&family, Pmapi_KernelError, "EIO");
  pm_prog_t prog;
  EXPECT_EQ(family.GetProgram(&prog), 0) << "the context is still there";
  EXPECT_TRUE(prog.mode.b.count) << "and still counting";
  ExpectRecovers(&family);
}

INSTANTIATE_TEST_SUITE_P(Families, Reads,
                         ::testing::Values(FamilyKind::kSystem, FamilyKind::kMyThread,
                                           FamilyKind::kThread, FamilyKind::kMyGroup,
                                           FamilyKind::kGroup),
                         [](const ::testing::TestParamInfo<FamilyKind> &param) {
                           return std::string(FamilyName(param.param));
                         });

// A CPU that goes offline between set and read, on a machine with at least two CPUs: the
// highest online CPU plays the one that goes.
class CpuOffline : public Reads {
 protected:
  void SetUp() override {
    Reads::SetUp();
    if (::testing::Test::HasFatalFailure() || ::testing::Test::IsSkipped()) return;
    // The CPUs online now, ascending.
    pm_prog_t prog = MakeProgram({clock_}, PM_USER | PM_KERNEL);
    ASSERT_EQ(pm_set_program(&prog), 0);
    pm_data_t data;
    for (int lcpu = 0; lcpu < 4096 && cpus_.size() < 64; ++lcpu) {
      if (pm_get_data_lcpu(lcpu, &data) == 0) cpus_.push_back(lcpu);
    }
    ASSERT_EQ(pm_delete_program(), 0);
    if (cpus_.size() < 2) GTEST_SKIP() << "needs two online CPUs; this machine has one";
    leaving_ = cpus_.back();
    staying_ = cpus_.front();
  }
  std::vector<int> cpus_;
  int leaving_ = -1;
  int staying_ = -1;
};

TEST_F(CpuOffline, FrozenCountersFailThatCpuOnlyAndSaySo) {
  Family family(FamilyKind::kSystem);
  ScopedKernel scoped(&kernel_);
  SetCounting(&family);
  kernel_.Rewrite(Mode::kFrozen, leaving_);
  pm_data_t data;
  ASSERT_EQ(pm_get_data_lcpu(leaving_, &data), 0) << "the moment it goes: nothing to see yet";
  // Long enough past the 1 ms (+0.1%) tolerance that the library allows the kernel's clock.
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  pm_accu_time_t times;
  EXPECT_EQ(pm_get_Tdata_lcpu(leaving_, &data, &times), Pmapi_CpuNotCounted);
  std::string message = pm_strerror("read", Pmapi_CpuNotCounted);
  EXPECT_NE(message.find("CPU " + std::to_string(leaving_) + " was offline"), std::string::npos)
      << "it is really online, so the message says it was gone for a while: " << message;
  EXPECT_NE(message.find("set the program again"), std::string::npos) << message;
  EXPECT_EQ(pm_get_data_cpu(DenseIndexOf(leaving_), &data), Pmapi_CpuNotCounted)
      << "the dense _cpu read of the same CPU says the same";
  CallGetppid(10);
  ASSERT_EQ(pm_get_data_lcpu(staying_, &data), 0) << pm_strerror("other CPU", Pmapi_CpuNotCounted);
  EXPECT_EQ(pm_get_data(&data), 0) << "the total adds what every CPU counted";
  EXPECT_EQ(pm_stop(), 0);
  EXPECT_EQ(pm_get_data_lcpu(leaving_, &data), Pmapi_CpuNotCounted) << "stopped, still behind";
  EXPECT_EQ(pm_reset_data(), 0);
  EXPECT_EQ(pm_get_data_lcpu(leaving_, &data), 0) << "after a reset while stopped, it is even";
  ExpectRecovers(&family);
}

TEST_F(CpuOffline, ReadErrorOnThatCpuNamesItAndLeavesTheOthers) {
  Family family(FamilyKind::kSystem);
  ScopedKernel scoped(&kernel_);
  SetCounting(&family);
  kernel_.Rewrite(Mode::kFail, leaving_, ENODEV);
  pm_data_t data;
  EXPECT_EQ(pm_get_data_lcpu(leaving_, &data), Pmapi_KernelError);
  std::string message = pm_strerror("read", Pmapi_KernelError);
  EXPECT_NE(message.find("CPU " + std::to_string(leaving_)), std::string::npos) << message;
  EXPECT_NE(message.find("ENODEV"), std::string::npos) << message;
  EXPECT_NE(message.find("offline"), std::string::npos) << message;
  EXPECT_EQ(pm_get_data_lcpu(staying_, &data), 0);
  EXPECT_EQ(pm_get_data(&data), Pmapi_KernelError) << "a total without that CPU would be wrong";
  ExpectRecovers(&family);
}

TEST_F(CpuOffline, ZeroBytesOnThatCpuNamesIt) {
  Family family(FamilyKind::kSystem);
  ScopedKernel scoped(&kernel_);
  SetCounting(&family);
  kernel_.Rewrite(Mode::kZeroBytes, leaving_);
  pm_data_t data;
  EXPECT_EQ(pm_get_data_lcpu(leaving_, &data), Pmapi_NotSchedulable);
  std::string message = pm_strerror("read", Pmapi_NotSchedulable);
  EXPECT_NE(message.find("CPU " + std::to_string(leaving_)), std::string::npos) << message;
  EXPECT_EQ(pm_get_data_lcpu(staying_, &data), 0);
  ExpectRecovers(&family);
}

TEST_F(CpuOffline, CountingCpusNeverLookBehind) {
  // The check that catches frozen counters must not fire on healthy ones: many reads, with
  // stops, starts and resets in between.
  Family family(FamilyKind::kSystem);
  SetCounting(&family);
  pm_data_t data;
  for (int round = 0; round < 200; ++round) {
    for (int cpu : cpus_) {
      ASSERT_EQ(pm_get_data_lcpu(cpu, &data), 0) << "round " << round;
    }
    if (round % 50 == 10) {
      ASSERT_EQ(pm_stop(), 0);
    } else if (round % 50 == 20) {
      ASSERT_EQ(pm_start(), 0);
    } else if (round % 50 == 30) {
      ASSERT_EQ(pm_reset_data(), 0);
    }
    if (round % 20 == 0) std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  EXPECT_EQ(family.Delete(), 0);
}

}  // namespace
