// SPDX-License-Identifier: MIT
// Tracepoint anchors (src/core/tracepoint_anchors.h): deleting a program with
// a tracepoint does not wait for the kernel's grace period once the process
// has counted that tracepoint, the anchors count nothing, are bounded, are
// visible to descriptor counts, and a forked child drops them.
#include <dirent.h>
#include <gtest/gtest.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/eventfd.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <string>
#include <thread>
#include <vector>

#include "base/kernel.h"
#include "base/settings.h"
#include "core/tracepoint_anchors.h"
#include "support/counting.h"
#include "support/fake_kernel.h"

using namespace pmapi_test;

namespace {

// A tracepoint no other test calls, so that no other process on the machine
// is likely to hold it open and hide the kernel's wait.
constexpr const char kGetpgid[] = "syscalls:sys_enter_getpgid";

void CallGetpgid(long n) {
  for (long i = 0; i < n; ++i) syscall(SYS_getpgid, 0);
}

double NowMs() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int AllPerfDescriptors() { return pmapi_test::CountPerfDescriptors(true); }

class Anchors : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(InitializeAll());
    getpgid_ = EventId(kGetpgid);
  }
  void TearDown() override { pm_delete_program_mythread(); }

  // The milliseconds one pm_delete_program_mythread of a getpgid program takes.
  double SetCountDelete(long calls) {
    pm_prog_t prog = MakeProgram({getpgid_}, PM_USER | PM_KERNEL | PM_COUNT);
    EXPECT_EQ(pm_set_program_mythread(&prog), 0) << pm_strerror("set", 0);
    CallGetpgid(calls);
    pm_data_t data;
    EXPECT_EQ(pm_get_data_mythread(&data), 0);
    EXPECT_EQ(data.accu[0], calls) << "an anchor never changes a count";
    const double start = NowMs();
    EXPECT_EQ(pm_delete_program_mythread(), 0);
    return NowMs() - start;
  }

  int getpgid_ = COUNT_NOTHING;
};

TEST_F(Anchors, DeleteSkipsTheKernelsWaitAndCountsStayExact) {
  SetCountDelete(10);  // the first set anchors the tracepoint
  std::vector<double> deletes;
  for (int i = 0; i < 7; ++i) deletes.push_back(SetCountDelete(100 + i));
  std::sort(deletes.begin(), deletes.end());
  // Without the anchor each delete waits for an RCU grace period (~37 ms here); with it, a
  // delete takes well under a millisecond. The bound leaves room for a loaded sanitizer run
  // preempting a few of the deletes (the benchmark, not this test, measures the cost).
  EXPECT_LT(deletes[deletes.size() / 2], 20.0) << "median delete, ms";
  EXPECT_EQ(pmapi::TracepointAnchorCount(), 1) << "one anchor per tracepoint, kept once";
}

TEST_F(Anchors, OutliveTheThreadThatOpenedThem) {
  std::thread([&] { SetCountDelete(2); }).join();
  ASSERT_EQ(pmapi::TracepointAnchorCount(), 1);
  std::vector<double> deletes;
  for (int i = 0; i < 5; ++i) deletes.push_back(SetCountDelete(7));
  std::sort(deletes.begin(), deletes.end());
  EXPECT_LT(deletes[deletes.size() / 2], 5.0) << "median delete, ms";
}

TEST_F(Anchors, AreVisibleToDescriptorCountsAndNoLeak) {
  const int before = CountPerfDescriptors();
  SetCountDelete(3);
  EXPECT_EQ(pmapi::TracepointAnchorCount(), 1);
  EXPECT_EQ(CountPerfDescriptors(), before) << "the program's descriptors were all closed";
  EXPECT_EQ(AllPerfDescriptors(), before + 1) << "the anchor is the one extra descriptor";
  pmapi::ReleaseTracepointAnchors();
  EXPECT_EQ(pmapi::TracepointAnchorCount(), 0);
  EXPECT_EQ(AllPerfDescriptors(), before) << "release closed the anchor";
}

TEST_F(Anchors, SoftwareEventsAreNotAnchored) {
  pm_prog_t prog = MakeProgram({EventId("task-clock")}, PM_USER | PM_KERNEL | PM_COUNT);
  ASSERT_EQ(pm_set_program_mythread(&prog), 0);
  ASSERT_EQ(pm_delete_program_mythread(), 0);
  EXPECT_EQ(pmapi::TracepointAnchorCount(), 0);
}

TEST_F(Anchors, TheVariableTurnsThemOff) {
  pmapi::SetSetting("PMAPI_NO_TRACEPOINT_ANCHORS", "1");
  const int before = AllPerfDescriptors();
  SetCountDelete(5);
  pmapi::SetSetting("PMAPI_NO_TRACEPOINT_ANCHORS", "");
  EXPECT_EQ(pmapi::TracepointAnchorCount(), 0);
  EXPECT_EQ(AllPerfDescriptors(), before);
}

TEST_F(Anchors, AForkedChildDropsThem) {
  SetCountDelete(1);
  ASSERT_EQ(pmapi::TracepointAnchorCount(), 1);
  const int child = InChild([] {
    if (pmapi::TracepointAnchorCount() != 0) _exit(2);
    if (AllPerfDescriptors() != 0) _exit(3);
  });
  EXPECT_EQ(child, 0);
  EXPECT_EQ(pmapi::TracepointAnchorCount(), 1) << "the parent keeps its anchor";
}

// Opens eventfds in place of perf events, so that the bound can be reached
// without holding dozens of real tracepoints.
class EventfdKernel : public FakeKernel {
 public:
  int PerfEventOpen(const perf_event_attr &, pid_t, int, int) override {
    ++opens;
    const int fd = eventfd(0, EFD_CLOEXEC);
    return fd < 0 ? -errno : fd;
  }
  int Close(int fd) override {
    ++closes;
    return close(fd) < 0 ? -errno : 0;
  }
  int opens = 0;
  int closes = 0;
};

TEST(AnchorBound, KeepsAtMostTheBoundAndOnePerTracepoint) {
  pmapi::ReleaseTracepointAnchors();  // those of earlier tests in this process
  EventfdKernel kernel;
  ScopedKernel scoped(&kernel);
  perf_event_attr attr{};
  attr.size = sizeof attr;
  attr.type = PERF_TYPE_TRACEPOINT;
  for (int round = 0; round < 2; ++round) {
    for (uint64_t config = 1; config <= pmapi::kMaxTracepointAnchors + 8; ++config) {
      attr.config = config;
      pmapi::AnchorTracepoint(attr);
    }
  }
  EXPECT_EQ(kernel.opens, pmapi::kMaxTracepointAnchors) << "no second anchor, none past the bound";
  EXPECT_EQ(pmapi::TracepointAnchorCount(), pmapi::kMaxTracepointAnchors);
  attr.type = PERF_TYPE_SOFTWARE;
  pmapi::AnchorTracepoint(attr);
  EXPECT_EQ(kernel.opens, pmapi::kMaxTracepointAnchors) << "only tracepoints are anchored";
  pmapi::ReleaseTracepointAnchors();
  EXPECT_EQ(kernel.closes, pmapi::kMaxTracepointAnchors);
  EXPECT_EQ(pmapi::TracepointAnchorCount(), 0);
}

TEST(AnchorBound, AFailedOpenIsNoAnchor) {
  FakeKernel kernel;
  kernel.FailWith(FakeKernel::Op::kPerfEventOpen, EMFILE);
  ScopedKernel scoped(&kernel);
  perf_event_attr attr{};
  attr.size = sizeof attr;
  attr.type = PERF_TYPE_TRACEPOINT;
  attr.config = 7;
  pmapi::AnchorTracepoint(attr);
  EXPECT_EQ(pmapi::TracepointAnchorCount(), 0);
  EXPECT_FALSE(pmapi::IsTracepointAnchorFd(-1));
}

}  // namespace
