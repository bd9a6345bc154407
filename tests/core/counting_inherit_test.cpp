// SPDX-License-Identifier: MIT
// AIX semantics for threads created after pm_set_program_mythread: the new
// thread inherits the program and the counting state, in a context of its
// own whose counts start at zero. And after fork the child holds nothing.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <pthread.h>

#include <thread>

#include "core/tracepoint_anchors.h"
#include "support/counting.h"
#include "support/counting_fixture.h"

using namespace pmapi_test;

namespace {

class Inherit : public GetppidTest {
 protected:
  void TearDown() override { pm_delete_program_mythread(); }
};

struct ChildResult {
  int read_rc = -1;
  long long own_count = -1;
  int set_again_rc = -1;
  int set_after_delete_rc = -1;
  pm_prog_t inherited = {};
};

TEST_F(Inherit, NewThreadGetsItsOwnContextWithTheSameProgram) {
  pm_prog_t prog = MakeProgram({getppid_}, PM_USER | PM_KERNEL | PM_COUNT);
  ASSERT_EQ(pm_set_program_mythread(&prog), 0);
  CallGetppid(300);
  ChildResult child;
  std::thread worker([&] {
    CallGetppid(45);
    pm_data_t data;
    child.read_rc = pm_get_data_mythread(&data);
    child.own_count = data.accu[0];
    pm_get_program_mythread(&child.inherited);
    pm_prog_t again = MakeProgram({getppid_}, PM_USER);
    child.set_again_rc = pm_set_program_mythread(&again);
    pm_delete_program_mythread();
    child.set_after_delete_rc = pm_set_program_mythread(&again);
  });
  worker.join();
  EXPECT_EQ(child.read_rc, 0);
  EXPECT_EQ(child.own_count, 45) << "the new thread's counts start at zero and are its own";
  EXPECT_EQ(child.inherited.events[0], getppid_);
  EXPECT_TRUE(child.inherited.mode.b.count) << "counting state inherited";
  EXPECT_EQ(child.set_again_rc, Pmapi_ProgExists);
  EXPECT_EQ(child.set_after_delete_rc, 0);
  pm_data_t data;
  ASSERT_EQ(pm_get_data_mythread(&data), 0);
  EXPECT_EQ(data.accu[0], 300) << "the creator's counts exclude the new thread";
}

TEST_F(Inherit, StoppedStateIsInheritedToo) {
  pm_prog_t prog = MakeProgram({getppid_}, PM_USER | PM_KERNEL);
  ASSERT_EQ(pm_set_program_mythread(&prog), 0);
  long long counted = -1;
  int start_rc = -1;
  std::thread worker([&] {
    CallGetppid(10);  // not counted: the creator was not counting
    start_rc = pm_start_mythread();
    CallGetppid(7);
    pm_data_t data;
    pm_get_data_mythread(&data);
    counted = data.accu[0];
  });
  worker.join();
  EXPECT_EQ(start_rc, 0);
  EXPECT_EQ(counted, 7);
}

TEST_F(Inherit, NoInheritBitLeavesNewThreadsWithoutContext) {
  pm_prog_t prog = MakeProgram({getppid_}, PM_USER | PM_COUNT | PM_NO_INHERIT);
  ASSERT_EQ(pm_set_program_mythread(&prog), 0);
  int rc = -1;
  std::thread worker([&] {
    pm_data_t data;
    rc = pm_get_data_mythread(&data);
  });
  worker.join();
  EXPECT_EQ(rc, Pmapi_NoSetProg);
}

TEST_F(Inherit, ExitingThreadClosesItsDescriptors) {
  const int before = CountPerfDescriptors();
  int set_rc = -1, open_while_alive = -1;
  std::thread worker([&] {
    pm_prog_t prog = MakeProgram({getppid_, EventId("task-clock")}, PM_USER | PM_COUNT);
    set_rc = pm_set_program_mythread(&prog);  // and never deleted
    open_while_alive = CountPerfDescriptors();
  });
  worker.join();
  ASSERT_EQ(set_rc, 0) << pm_strerror("pm_set_program_mythread", set_rc);
  EXPECT_EQ(open_while_alive, before + 2) << "the thread held one descriptor per event";
  EXPECT_EQ(CountPerfDescriptors(), before) << "and its exit closed both";
}

TEST_F(Inherit, ForkedChildHoldsNoContext) {
  pm_prog_t prog = MakeProgram({getppid_}, PM_USER | PM_COUNT);
  ASSERT_EQ(pm_set_program_mythread(&prog), 0);
  int status = InChild([] {
    pm_data_t data;
    if (pm_get_data_mythread(&data) != Pmapi_NoSetProg) _exit(1);
    if (CountPerfDescriptors() != 0) _exit(2);
    pm_prog_t again = MakeProgram({EventId(kGetppid)}, PM_USER | PM_COUNT);
    if (pm_set_program_mythread(&again) != 0) _exit(3);  // a fresh start works
    CallGetppid(5);
    if (pm_get_data_mythread(&data) != 0 || data.accu[0] != 5) _exit(4);
  });
  EXPECT_EQ(status, 0);
  pm_data_t data;
  ASSERT_EQ(pm_get_data_mythread(&data), 0) << "the parent keeps its context";
}

TEST_F(Inherit, DescriptorsAreCloseOnExec) {
  pm_prog_t prog = MakeProgram({getppid_, EventId("task-clock")}, PM_USER);
  ASSERT_EQ(pm_set_program_mythread(&prog), 0);
  int checked = 0;
  for (int fd = 0; fd < 1024; ++fd) {
    char path[64], target[256] = {0};
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    if (readlink(path, target, sizeof target - 1) <= 0) continue;
    if (std::string(target).find("perf_event") == std::string::npos) continue;
    EXPECT_TRUE(fcntl(fd, F_GETFD) & FD_CLOEXEC) << "fd " << fd;
    ++checked;
  }
  // The program's two, and the getppid tracepoint's anchor (tracepoint_anchors.h), checked too.
  EXPECT_EQ(checked, 2 + pmapi::TracepointAnchorCount());
  EXPECT_EQ(pmapi::TracepointAnchorCount(), 1);
}

}  // namespace
