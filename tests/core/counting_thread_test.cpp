// SPDX-License-Identifier: MIT
// Third-party counting: a parent counts a thread of its child process. The
// kernel's ptrace check decides who may; counts stay readable after exit.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "support/child_process.h"
#include "support/counting.h"
#include "support/counting_fixture.h"

using namespace pmapi_test;

namespace {

using Child = CallingChild;

class ThirdParty : public GetppidTest {};

TEST_F(ThirdParty, ParentCountsChildThreadExactlyAndAfterItExits) {
  Child child(321);
  ASSERT_TRUE(child.ok());
  pm_prog_t prog = MakeProgram({getppid_}, PM_USER | PM_KERNEL | PM_COUNT);
  ASSERT_EQ(pm_set_program_thread(child.pid(), child.pid(), &prog), 0)
      << pm_strerror("set", Pmapi_Permission);
  EXPECT_EQ(pm_set_program_thread(child.pid(), child.pid(), &prog), Pmapi_ProgExists);
  child.Go();
  child.Finish();  // the child has exited
  pm_data_t data;
  ASSERT_EQ(pm_get_data_thread(child.pid(), child.pid(), &data), 0);
  EXPECT_EQ(data.accu[0], 321);
  ASSERT_EQ(pm_get_data_pthread(child.pid(), child.pid(), 0, &data), 0) << "_pthread, ptid 0";
  EXPECT_EQ(data.accu[0], 321);
  ASSERT_EQ(pm_stop_thread(child.pid(), child.pid()), 0);
  ASSERT_EQ(pm_delete_program_thread(child.pid(), child.pid()), 0);
  EXPECT_EQ(pm_get_data_thread(child.pid(), child.pid(), &data), Pmapi_NoSetProg);
}

TEST_F(ThirdParty, StartStopAndResetOnTheTarget) {
  Child child;
  ASSERT_TRUE(child.ok());
  const pid_t pid = child.pid();
  pm_prog_t prog = MakeProgram({getppid_}, PM_USER | PM_KERNEL);
  ASSERT_EQ(pm_set_program_pthread(pid, pid, 0, &prog), 0);
  ASSERT_TRUE(child.Calls(11));  // not counted: set without PM_COUNT
  ASSERT_EQ(pm_start_pthread(pid, pid, 0), 0);
  ASSERT_TRUE(child.Calls(50));
  ASSERT_EQ(pm_stop_pthread(pid, pid, 0), 0);
  ASSERT_TRUE(child.Calls(20));  // not counted: stopped
  pm_data_t data;
  ASSERT_EQ(pm_get_data_thread(pid, pid, &data), 0);
  EXPECT_EQ(data.accu[0], 50) << "only the calls between start and stop";
  ASSERT_EQ(pm_reset_data_thread(pid, pid), 0);
  ASSERT_EQ(pm_get_data_thread(pid, pid, &data), 0);
  EXPECT_EQ(data.accu[0], 0);
  ASSERT_EQ(pm_start_thread(pid, pid), 0);
  ASSERT_TRUE(child.Calls(5));
  EXPECT_EQ(child.Finish(), 0);
  ASSERT_EQ(pm_get_data_pthread(pid, pid, 0, &data), 0);
  EXPECT_EQ(data.accu[0], 5) << "counting again after the reset, read after the exit";
  ASSERT_EQ(pm_delete_program_pthread(pid, pid, 0), 0);
}

TEST_F(ThirdParty, BadTargetsAreRefused) {
  pm_prog_t prog = MakeProgram({getppid_}, PM_USER);
  EXPECT_EQ(pm_set_program_thread(0, 0, &prog), Pmapi_InvalidArg);
  EXPECT_EQ(pm_set_program_thread(-5, 3, &prog), Pmapi_InvalidArg);
  EXPECT_EQ(pm_set_program_pthread(getpid(), 0, 77, &prog), Pmapi_Unsupported);
  // A pid that cannot exist (above pid_max).
  EXPECT_EQ(pm_set_program_thread(99999999, 99999999, &prog), Pmapi_NoSuchThread);
  // A thread that is not in that process.
  EXPECT_EQ(pm_set_program_thread(getpid(), getppid(), &prog), Pmapi_NoSuchThread);
}

TEST_F(ThirdParty, AnotherUsersProcessIsRefusedWithPrivilegeAdvice) {
  if (geteuid() != 0) GTEST_SKIP() << "drops from root to nobody: run as root";
  // Our own (root) pid, counted by a child that became `nobody`.
  const pid_t root_pid = getpid();
  int status = InChild([&] {
    if (!DropToNobody()) _exit(10);
    pm_prog_t prog = MakeProgram({EventId("task-clock")}, PM_USER);
    int rc = pm_set_program_thread(root_pid, root_pid, &prog);
    if (rc != Pmapi_Permission) _exit(11);
    std::string message = pm_strerror("pm_set_program_thread", rc);
    if (message.find("perf_event_paranoid") == std::string::npos) _exit(12);
    if (message.find("CAP_PERFMON") == std::string::npos) _exit(13);
    _exit(0);
  });
  EXPECT_EQ(status, 0);
}

TEST_F(ThirdParty, UnprivilegedSystemWideIsRefusedWithPrivilegeAdvice) {
  if (geteuid() != 0) GTEST_SKIP() << "drops from root to nobody: run as root";
  int status = InChild([&] {
    if (!DropToNobody()) _exit(10);
    pm_prog_t prog = MakeProgram({EventId("task-clock")}, PM_USER);
    int rc = pm_set_program(&prog);
    if (rc != Pmapi_Permission) _exit(11);
    std::string message = pm_strerror("pm_set_program", rc);
    if (message.find("perf_event_paranoid") == std::string::npos) _exit(12);
    if (message.find("CAP_PERFMON") == std::string::npos) _exit(13);
    // Its own threads still count in user mode.
    if (pm_set_program_mythread(&prog) != 0) _exit(14);
    pm_data_t data;
    if (pm_start_mythread() != 0 || pm_get_data_mythread(&data) != 0 || data.accu[0] <= 0) {
      _exit(15);
    }
    _exit(0);
  });
  EXPECT_EQ(status, 0);
}

}  // namespace
