// SPDX-License-Identifier: MIT
// pmc_control(2): every operation, every error NetBSD's man page lists, and
// exact counts through the getppid tracepoint.
#include <errno.h>
#include <gtest/gtest.h>
#include <sys/mman.h>

#include "base/kernel.h"
#include "pmc_test_helpers.h"
#include "support/counting.h"
#include "support/fake_kernel.h"

namespace {

using pmapi_test::CallGetppid;
using pmc_test::Accumulated;
using pmc_test::Configure;
using pmc_test::Op;
using pmc_test::ProfStart;
using pmc_test::Value;

// NetBSD has no operation that unconfigures a counter, so when the tests of
// this binary share one process (run without ctest) a counter configured by
// one stays configured in the next. Hence fixed roles: these counters are
// never configured for counting, and the last is never touched at all.
constexpr int kProfiling = 2;
constexpr int kProfilingToo = 5;
constexpr int kNeverConfigured = PMC_LINUX_NCOUNTERS - 1;

using NetbsdControl = pmc_test::GetppidTest;

TEST_F(NetbsdControl, ConfigureStartStopCountExactly) {
  ASSERT_EQ(Configure(0, getppid_), 0);
  CallGetppid(10);
  EXPECT_EQ(Value(0), 0u) << "a configured counter does not count before PMC_OP_START";
  ASSERT_EQ(Op(0, PMC_OP_START), 0);
  CallGetppid(1000);
  EXPECT_EQ(Value(0), 1000u);
  ASSERT_EQ(Op(0, PMC_OP_STOP), 0);
  CallGetppid(100);
  EXPECT_EQ(Value(0), 1000u) << "a stopped counter keeps its value";
  ASSERT_EQ(Op(0, PMC_OP_START), 0);
  CallGetppid(5);
  EXPECT_EQ(Value(0), 1005u) << "a restarted counter continues from its value";
  EXPECT_EQ(Accumulated(0), 0u) << "no child has exited";
}

TEST_F(NetbsdControl, CountersAreIndependent) {
  ASSERT_EQ(Configure(0, getppid_), 0);
  ASSERT_EQ(Configure(3, getppid_), 0);
  ASSERT_EQ(Op(0, PMC_OP_START), 0);
  CallGetppid(7);
  ASSERT_EQ(Op(3, PMC_OP_START), 0);
  CallGetppid(11);
  EXPECT_EQ(Value(0), 18u);
  EXPECT_EQ(Value(3), 11u);
}

TEST_F(NetbsdControl, ReconfiguringStopsAndRestartsFromZero) {
  ASSERT_EQ(Configure(0, getppid_), 0);
  ASSERT_EQ(Op(0, PMC_OP_START), 0);
  CallGetppid(50);
  ASSERT_EQ(Configure(0, getppid_), 0);
  CallGetppid(50);
  EXPECT_EQ(Value(0), 0u) << "reconfigured: stopped, value back to zero";
  EXPECT_EQ(Op(0, PMC_OP_START), 0) << "no longer running, so START is allowed";
}

TEST_F(NetbsdControl, StartOrStopUnconfiguredIsEnxio) {
  EXPECT_EQ(Op(kNeverConfigured, PMC_OP_START), ENXIO);
  EXPECT_EQ(Op(kNeverConfigured, PMC_OP_STOP), ENXIO);
}

TEST_F(NetbsdControl, StartWhileRunningIsEinprogress) {
  ASSERT_EQ(Configure(0, getppid_), 0);
  ASSERT_EQ(Op(0, PMC_OP_START), 0);
  EXPECT_EQ(Op(0, PMC_OP_START), EINPROGRESS);
}

TEST_F(NetbsdControl, StopWhileStoppedSucceeds) {
  ASSERT_EQ(Configure(0, getppid_), 0);
  EXPECT_EQ(Op(0, PMC_OP_STOP), 0);
}

TEST_F(NetbsdControl, BadCounterIsEinvalForEveryOp) {
  for (int op : {PMC_OP_START, PMC_OP_STOP, PMC_OP_PROFSTOP}) {
    EXPECT_EQ(Op(-1, op), EINVAL) << "op " << op;
    EXPECT_EQ(Op(PMC_LINUX_NCOUNTERS, op), EINVAL) << "op " << op;
  }
  EXPECT_EQ(Configure(-1, getppid_), EINVAL);
  EXPECT_EQ(Configure(PMC_LINUX_NCOUNTERS, getppid_), EINVAL);
  EXPECT_EQ(ProfStart(PMC_LINUX_NCOUNTERS, getppid_), EINVAL);
}

TEST_F(NetbsdControl, BadOpIsEinval) {
  for (int op : {0, PMC_OP_PROFSTOP + 1, -1, 100}) EXPECT_EQ(Op(0, op), EINVAL) << "op " << op;
}

TEST_F(NetbsdControl, UnknownFlagBitsAreEinval) { EXPECT_EQ(Configure(0, getppid_, 0x4), EINVAL); }

TEST_F(NetbsdControl, ConfigureWithBadPointerIsEfault) {
  EXPECT_EQ(pmc_test::ErrnoOf(pmc_control(0, PMC_OP_CONFIGURE, nullptr)), EFAULT);
  EXPECT_EQ(pmc_test::ErrnoOf(pmc_control(0, PMC_OP_PROFSTART, nullptr)), EFAULT);
  // An address that is mapped but unreadable: the copy-in faults, the call does not crash.
  void *page = mmap(nullptr, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(page, MAP_FAILED);
  EXPECT_EQ(pmc_test::ErrnoOf(pmc_control(0, PMC_OP_CONFIGURE, page)), EFAULT);
  munmap(page, 4096);
}

TEST_F(NetbsdControl, UnknownEventIsEnodev) {
  EXPECT_EQ(Configure(0, static_cast<pmc_evid_t>(-5)), ENODEV);
  EXPECT_EQ(Configure(0, static_cast<pmc_evid_t>(999999999)), ENODEV);
  EXPECT_EQ(ProfStart(0, static_cast<pmc_evid_t>(999999999)), ENODEV);
}

TEST_F(NetbsdControl, FailedConfigureLeavesTheCounterAsItWas) {
  ASSERT_EQ(Configure(0, getppid_), 0);
  ASSERT_EQ(Op(0, PMC_OP_START), 0);
  CallGetppid(20);
  EXPECT_EQ(Configure(0, static_cast<pmc_evid_t>(999999999)), ENODEV);
  CallGetppid(20);
  EXPECT_EQ(Value(0), 40u);
  EXPECT_EQ(Op(0, PMC_OP_START), EINPROGRESS) << "still running";
}

TEST_F(NetbsdControl, KernelOutOfMemoryIsEnomem) {
  pmapi_test::InstalledKernel kernel;
  kernel.FailWith(pmapi_test::FakeKernel::Op::kPerfEventOpen, ENOMEM);
  EXPECT_EQ(Configure(0, getppid_), ENOMEM);
  EXPECT_EQ(ProfStart(kProfiling, getppid_), ENOMEM);
}

TEST_F(NetbsdControl, EventTheKernelCannotCountIsEnodev) {
  // What a VM without a PMU answers for a hardware event.
  pmapi_test::InstalledKernel kernel;
  kernel.FailWith(pmapi_test::FakeKernel::Op::kPerfEventOpen, ENOENT);
  EXPECT_EQ(Configure(0, getppid_), ENODEV);
}

TEST_F(NetbsdControl, ProfilingCountsAndStops) {
  ASSERT_EQ(ProfStart(kProfiling, getppid_, 100), 0);
  CallGetppid(1000);
  EXPECT_EQ(Value(kProfiling), 1000u) << "a profiling counter reads as the events since PROFSTART";
  EXPECT_EQ(Op(kProfiling, PMC_OP_PROFSTOP), 0);
  EXPECT_EQ(Value(kProfiling), 0u) << "released";
  EXPECT_EQ(ProfStart(kProfiling, getppid_), 0) << "free again after PROFSTOP";
}

TEST_F(NetbsdControl, ProfilingCounterIsBusy) {
  ASSERT_EQ(ProfStart(kProfiling, getppid_), 0);
  EXPECT_EQ(Configure(kProfiling, getppid_), EBUSY);
  EXPECT_EQ(ProfStart(kProfiling, getppid_), EBUSY) << "already profiling";
  EXPECT_EQ(Op(kProfiling, PMC_OP_START), ENXIO) << "not configured for counting";
}

TEST_F(NetbsdControl, CountingCounterCannotProfile) {
  ASSERT_EQ(Configure(1, getppid_), 0);
  EXPECT_EQ(ProfStart(1, getppid_), EBUSY);
}

TEST_F(NetbsdControl, ProfstopWithoutProfilingSucceeds) {
  EXPECT_EQ(Op(kNeverConfigured, PMC_OP_PROFSTOP), 0);
  ASSERT_EQ(Configure(1, getppid_), 0);
  EXPECT_EQ(Op(1, PMC_OP_PROFSTOP), 0) << "a counting counter is not touched";
  EXPECT_EQ(Op(1, PMC_OP_START), 0);
}

TEST_F(NetbsdControl, ReconfiguringAndProfilingLeakNoDescriptors) {
  ASSERT_EQ(Configure(0, getppid_), 0);
  const int open = pmapi_test::CountPerfDescriptors();
  for (int i = 0; i < 5; ++i) {
    ASSERT_EQ(Configure(0, getppid_), 0);
    ASSERT_EQ(ProfStart(kProfilingToo, getppid_), 0);
    ASSERT_EQ(Op(kProfilingToo, PMC_OP_PROFSTOP), 0);
  }
  EXPECT_EQ(pmapi_test::CountPerfDescriptors(), open);
}

}  // namespace
