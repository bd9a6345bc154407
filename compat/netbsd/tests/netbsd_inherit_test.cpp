// SPDX-License-Identifier: MIT
// Counters are per process: threads count into it, a forked child gets the
// configuration with values starting at zero, and a child's counts reach its
// parent's PMC_INFO_ACCUMULATED_COUNTER_VALUE when it exits.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <thread>

#include "pmc_test_helpers.h"
#include "support/child_process.h"
#include "support/counting.h"

namespace {

using pmapi_test::CallGetppid;
using pmapi_test::InChild;
using pmc_test::Accumulated;
using pmc_test::Configure;
using pmc_test::Op;
using pmc_test::Value;

// Child exit codes: 0 = every check held; each failed check has its own code.
int ChildValue(int ctr) {
  uint64_t value = 0;
  return pmc_get_info(ctr, PMC_INFO_COUNTER_VALUE, &value) == 0 ? static_cast<int>(value) : -1;
}
int ChildAccumulated(int ctr) {
  uint64_t value = 0;
  return pmc_get_info(ctr, PMC_INFO_ACCUMULATED_COUNTER_VALUE, &value) == 0
             ? static_cast<int>(value)
             : -1;
}

class NetbsdInherit : public ::testing::Test {
 protected:
  void SetUp() override {
    pmc_test::EnsureTracefs();
    getppid_ = pmc_test::EventId(pmc_test::kGetppid);
    ASSERT_EQ(Configure(0, getppid_), 0);
  }
  void TearDown() override { pmc_test::ReleaseAll(); }

  pmc_evid_t getppid_ = 0;
};

TEST_F(NetbsdInherit, ChildStartsAtZeroAndParentAccumulatesIt) {
  ASSERT_EQ(Op(0, PMC_OP_START), 0);
  CallGetppid(300);
  int child = InChild([] {
    if (ChildValue(0) != 0) _exit(1);
    if (ChildAccumulated(0) != 0) _exit(2);
    CallGetppid(70);
    if (ChildValue(0) != 70) _exit(3);
    if (ChildAccumulated(0) != 0) _exit(4);
    // Inherited running: START again is "already running".
    if (pmc_control(0, PMC_OP_START, nullptr) == 0 || errno != EINPROGRESS) _exit(5);
  });
  EXPECT_EQ(child, 0) << "the check with that exit code failed in the child";
  EXPECT_EQ(Value(0), 300u) << "the child's counts are not the parent's own";
  EXPECT_EQ(Accumulated(0), 70u) << "the exited child's count";
  CallGetppid(5);
  EXPECT_EQ(Value(0), 305u);
  EXPECT_EQ(Accumulated(0), 70u);
}

TEST_F(NetbsdInherit, GrandchildrenReachEveryAncestor) {
  ASSERT_EQ(Op(0, PMC_OP_START), 0);
  int child = InChild([] {
    CallGetppid(10);
    int status = 0;
    pid_t grandchild = fork();
    if (grandchild == 0) {
      if (ChildValue(0) != 0) _exit(1);
      CallGetppid(20);
      _exit(0);
    }
    if (waitpid(grandchild, &status, 0) != grandchild || status != 0) _exit(2);
    if (ChildValue(0) != 10) _exit(3);
    if (ChildAccumulated(0) != 20) _exit(4);
  });
  EXPECT_EQ(child, 0) << "the check with that exit code failed in the child";
  EXPECT_EQ(Accumulated(0), 30u) << "child 10 + grandchild 20";
  EXPECT_EQ(Value(0), 0u);
}

TEST_F(NetbsdInherit, StoppedConfigurationIsInheritedStopped) {
  int child = InChild([] {
    CallGetppid(10);
    if (ChildValue(0) != 0) _exit(1);
    if (pmc_control(0, PMC_OP_START, nullptr) != 0) _exit(2);  // configured: START works
    CallGetppid(15);
    if (ChildValue(0) != 15) _exit(3);
  });
  EXPECT_EQ(child, 0) << "the check with that exit code failed in the child";
  EXPECT_EQ(Value(0), 0u);
  // Documented limit: the parent's stopped counter did not take the child's counts.
  EXPECT_EQ(Accumulated(0), 0u);
}

TEST_F(NetbsdInherit, RunningChildIsIncludedSoFar) {
  // Documented limit: perf sums live children too, NetBSD only exited ones.
  ASSERT_EQ(Op(0, PMC_OP_START), 0);
  pmapi_test::CallingChild child;
  ASSERT_TRUE(child.ok());
  ASSERT_TRUE(child.Calls(12));
  EXPECT_EQ(Accumulated(0), 12u);
  ASSERT_TRUE(child.Calls(8));
  EXPECT_EQ(child.Finish(), 0);
  EXPECT_EQ(Accumulated(0), 20u);
}

TEST_F(NetbsdInherit, ProfilingStaysWithTheParent) {
  ASSERT_EQ(pmc_test::ProfStart(2, getppid_), 0);
  int child = InChild([] {
    int type = 0;
    if (pmc_get_info(2, PMC_INFO_CPUCTR_TYPE, &type) != 0 || type != PMC_TYPE_LINUX_FREE) _exit(1);
    CallGetppid(40);
  });
  EXPECT_EQ(child, 0) << "the check with that exit code failed in the child";
  EXPECT_EQ(Value(2), 40u) << "profiling covers the children, as NetBSD's covered everything";
}

TEST_F(NetbsdInherit, ThreadsCountIntoTheProcess) {
  // One thread that exists before CONFIGURE, one created after START.
  std::atomic<int> phase{0};
  std::thread early([&phase] {
    while (phase.load() == 0) std::this_thread::yield();
    CallGetppid(25);
    phase.store(2);
  });
  ASSERT_EQ(Configure(0, getppid_), 0);
  ASSERT_EQ(Op(0, PMC_OP_START), 0);
  phase.store(1);
  early.join();
  std::thread late([] { CallGetppid(35); });
  late.join();
  CallGetppid(40);
  EXPECT_EQ(Value(0), 100u);
  EXPECT_EQ(Accumulated(0), 0u) << "threads are the process, not children";
}

}  // namespace
