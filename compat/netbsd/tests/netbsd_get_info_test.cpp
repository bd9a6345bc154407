// SPDX-License-Identifier: MIT
// pmc_get_info(2): every request, the counter type codes, the privilege-level
// flags, and the errors.
#include <errno.h>
#include <gtest/gtest.h>
#include <sys/mman.h>

#include "pmc_test_helpers.h"
#include "support/counting.h"

namespace {

using pmc_test::Configure;
using pmc_test::ErrnoOf;
using pmc_test::Op;
using pmc_test::Value;

// Never configured by any test here (see netbsd_control_test.cpp).
constexpr int kNeverConfigured = PMC_LINUX_NCOUNTERS - 1;

class NetbsdGetInfo : public ::testing::Test {
 protected:
  void SetUp() override { pmc_test::EnsureTracefs(); }
  void TearDown() override { pmc_test::ReleaseAll(); }
};

int TypeOf(int ctr) {
  int type = 0;
  EXPECT_EQ(pmc_get_info(ctr, PMC_INFO_CPUCTR_TYPE, &type), 0);
  return type;
}

TEST_F(NetbsdGetInfo, NcountersIgnoresTheCounter) {
  for (int ctr : {-1, 0, 3, 100}) {
    int count = 0;
    ASSERT_EQ(pmc_get_info(ctr, PMC_INFO_NCOUNTERS, &count), 0);
    EXPECT_EQ(count, PMC_LINUX_NCOUNTERS);
  }
}

TEST_F(NetbsdGetInfo, TypeCodes) {
  EXPECT_EQ(TypeOf(-1), PMC_CLASS_LINUX_PERF);
  EXPECT_EQ(TypeOf(kNeverConfigured), PMC_TYPE_LINUX_FREE);
  EXPECT_EQ(TypeOf(PMC_LINUX_NCOUNTERS), -1);
  EXPECT_EQ(TypeOf(-2), -1);
  ASSERT_EQ(Configure(0, pmc_test::EventId(pmc_test::kGetppid)), 0);
  EXPECT_EQ(TypeOf(0), PMC_TYPE_LINUX_TRACEPOINT);
  ASSERT_EQ(Configure(1, pmc_test::EventId("task-clock")), 0);
  EXPECT_EQ(TypeOf(1), PMC_TYPE_LINUX_SOFTWARE);
  ASSERT_EQ(pmc_test::ProfStart(2, pmc_test::EventId("page-faults")), 0);
  EXPECT_EQ(TypeOf(2), PMC_TYPE_LINUX_SOFTWARE) << "a profiling counter has its event's type";
}

TEST_F(NetbsdGetInfo, UnconfiguredCounterReadsZero) {
  EXPECT_EQ(Value(kNeverConfigured), 0u);
  EXPECT_EQ(pmc_test::Accumulated(kNeverConfigured), 0u);
}

TEST_F(NetbsdGetInfo, ValueOfBadCounterIsEinval) {
  uint64_t value = 0;
  for (int request : {PMC_INFO_COUNTER_VALUE, PMC_INFO_ACCUMULATED_COUNTER_VALUE}) {
    EXPECT_EQ(ErrnoOf(pmc_get_info(-1, request, &value)), EINVAL);
    EXPECT_EQ(ErrnoOf(pmc_get_info(PMC_LINUX_NCOUNTERS, request, &value)), EINVAL);
  }
}

TEST_F(NetbsdGetInfo, BadRequestIsEinval) {
  uint64_t value = 0;
  for (int request : {0, 5, -1}) {
    EXPECT_EQ(ErrnoOf(pmc_get_info(0, request, &value)), EINVAL) << "request " << request;
  }
}

TEST_F(NetbsdGetInfo, BadPointerIsEfault) {
  void *page = mmap(nullptr, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(page, MAP_FAILED);
  for (int request : {PMC_INFO_NCOUNTERS, PMC_INFO_CPUCTR_TYPE, PMC_INFO_COUNTER_VALUE,
                      PMC_INFO_ACCUMULATED_COUNTER_VALUE}) {
    EXPECT_EQ(ErrnoOf(pmc_get_info(0, request, nullptr)), EFAULT) << "request " << request;
    // Mapped read-only: the copy-out faults and the call says so.
    EXPECT_EQ(ErrnoOf(pmc_get_info(0, request, page)), EFAULT) << "request " << request;
  }
  munmap(page, 4096);
}

// Touches `pages` fresh anonymous pages: one user-mode page fault each.
void TouchFreshPages(int pages) {
  const long size = 4096L * pages;
  void *memory = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(memory, MAP_FAILED);
  for (long offset = 0; offset < size; offset += 4096)
    static_cast<volatile char *>(memory)[offset] = 1;
  munmap(memory, size);
}

TEST_F(NetbsdGetInfo, PrivilegeFlagsSelectWhatCounts) {
  // A fault on a user address is charged to user mode (docs/counting.md).
  const pmc_evid_t faults = pmc_test::EventId("page-faults");
  ASSERT_EQ(Configure(0, faults, PMC_CFG_USER), 0);
  ASSERT_EQ(Configure(1, faults, PMC_CFG_KERNEL), 0);
  ASSERT_EQ(Configure(3, faults), 0);
  // Counter 3 counts around the others, so that a fault of their own starts and stops (a
  // sanitizer's allocator touching a fresh page) falls inside its window too.
  for (int ctr : {3, 0, 1}) ASSERT_EQ(Op(ctr, PMC_OP_START), 0);
  TouchFreshPages(64);
  for (int ctr : {1, 0, 3}) ASSERT_EQ(Op(ctr, PMC_OP_STOP), 0);
  EXPECT_GE(Value(0), 64u);
  EXPECT_LT(Value(1), 64u);
  EXPECT_GE(Value(3), Value(0)) << "flags 0 counts every level, as NetBSD did";
}

}  // namespace
