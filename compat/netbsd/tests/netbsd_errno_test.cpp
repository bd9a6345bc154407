// SPDX-License-Identifier: MIT
// pmc_control's errno for each way the kernel refuses, now that the counters
// are core contexts: the core's Status keeps the kernel's errno, and the layer
// reports it unchanged (EPERM is not EACCES, ENFILE not EMFILE), but for the
// man page's ENODEV where the event cannot be counted here.
#include <errno.h>
#include <gtest/gtest.h>
#include <sys/ioctl.h>

#include "base/status.h"
#include "pmapi.h"
#include "pmc_test_helpers.h"
#include "support/counting.h"
#include "support/fake_kernel.h"

namespace {

using pmapi_test::FakeKernel;
using pmc_test::Configure;
using pmc_test::Op;
using pmc_test::ProfStart;

// Counter 0 is configured by the tests that succeed; the others never are, so
// each failure below meets a free counter.
constexpr int kFree = 1;

using NetbsdErrno = pmc_test::GetppidTest;

TEST(CoreStatus, StatusFromErrnoKeepsTheKernelsErrno) {
  EXPECT_EQ(pmapi::StatusFromErrno(EPERM, "open").kernel_errno(), EPERM);
  const pmapi::Status copied = pmapi::StatusFromErrno(ENFILE, "open");
  EXPECT_EQ(pmapi::Status(copied).kernel_errno(), ENFILE);
  EXPECT_EQ(pmapi::Status(Pmapi_NotSchedulable, "no errno").kernel_errno(), 0);
}

TEST_F(NetbsdErrno, OpenFailuresKeepTheKernelsErrno) {
  for (int err : {EPERM, EACCES, EMFILE, ENFILE, ENOMEM, EBUSY}) {
    pmapi_test::InstalledKernel kernel;
    kernel.FailWith(FakeKernel::Op::kPerfEventOpen, err);
    EXPECT_EQ(Configure(kFree, getppid_), err) << strerror(err);
    EXPECT_EQ(ProfStart(kFree, getppid_), err) << strerror(err);
  }
}

TEST_F(NetbsdErrno, EncodingsTheKernelRejectsAreEnodev) {
  for (int err : {ENOENT, EOPNOTSUPP, EINVAL}) {
    pmapi_test::InstalledKernel kernel;
    kernel.FailWith(FakeKernel::Op::kPerfEventOpen, err);
    EXPECT_EQ(Configure(kFree, getppid_), ENODEV) << strerror(err);
  }
}

TEST_F(NetbsdErrno, FailedOpenLeavesNoDescriptor) {
  const int open = pmapi_test::CountPerfDescriptors();
  {
    // The own context opens, the tree context fails: the own one must close too.
    pmapi_test::InstalledKernel kernel;
    kernel.SetPerfEventOpenHook(
        [](const perf_event_attr &attr) { return attr.inherit_thread ? 0 : EMFILE; });
    EXPECT_EQ(Configure(kFree, getppid_), EMFILE);
  }
  EXPECT_EQ(pmapi_test::CountPerfDescriptors(), open);
  EXPECT_EQ(Op(kFree, PMC_OP_START), ENXIO) << "the failed counter stays unconfigured";
}

TEST_F(NetbsdErrno, StartAndStopFailuresKeepTheKernelsErrno) {
  ASSERT_EQ(Configure(0, getppid_), 0);
  {
    pmapi_test::InstalledKernel kernel;
    kernel.FailWith(FakeKernel::Op::kIoctl, EPERM);
    EXPECT_EQ(Op(0, PMC_OP_START), EPERM);
  }
  EXPECT_EQ(Op(0, PMC_OP_START), 0) << "a failed START leaves the counter stopped";
  {
    pmapi_test::InstalledKernel kernel;
    kernel.FailWith(FakeKernel::Op::kIoctl, EIO);
    EXPECT_EQ(Op(0, PMC_OP_STOP), EIO);
  }
}

TEST_F(NetbsdErrno, ReadFailuresKeepTheKernelsErrno) {
  ASSERT_EQ(Configure(0, getppid_), 0);
  pmapi_test::InstalledKernel kernel;
  kernel.FailWith(FakeKernel::Op::kRead, EINTR);
  uint64_t value = 0;
  EXPECT_EQ(pmc_get_info(0, PMC_INFO_COUNTER_VALUE, &value), -1);
  EXPECT_EQ(errno, EINTR);
  EXPECT_EQ(pmc_get_info(0, PMC_INFO_ACCUMULATED_COUNTER_VALUE, &value), -1);
  EXPECT_EQ(errno, EINTR);
}

}  // namespace
