// SPDX-License-Identifier: MIT
// The kit's one launcher (stopped_command.h) held before its exec, as cpuperf and pmsample
// start their commands: nothing runs before Release, a failed exec is told, a tracer that gives
// up leaves no child, and the wait reports the signal it passed on.
#include <errno.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>

#include "stopped_command.h"
#include "support/scratch_dir.h"

namespace tools {
namespace {

bool Exists(const std::string &path) {
  struct stat info;
  return stat(path.c_str(), &info) == 0;
}

TEST(HeldCommand, RunsNothingUntilReleased) {
  pmapi_test::ScratchDir dir("held_command");
  const std::string mark = dir.path() + "/ran";
  Command command;
  ASSERT_EQ(command.StartHeld({"sh", "-c", "touch " + mark + "; exit 3"}), 0);
  ASSERT_GT(command.pid(), 0);
  EXPECT_FALSE(command.Reap());
  EXPECT_FALSE(Exists(mark));
  ASSERT_EQ(command.Release(), 0);
  siginfo_t info;  // waits for the exit and leaves the reaping to the command
  ASSERT_EQ(waitid(P_PID, static_cast<id_t>(command.pid()), &info, WEXITED | WNOWAIT), 0);
  EXPECT_TRUE(command.Reap());
  EXPECT_TRUE(Exists(mark));
  EXPECT_EQ(command.exit_status(), 3);
}

TEST(HeldCommand, SaysWhyItsExecFailed) {
  Command command;
  ASSERT_EQ(command.StartHeld({"/nonexistent/program"}), 0);
  EXPECT_EQ(command.Release(), -1);
  EXPECT_EQ(command.exec_errno(), ENOENT);
  EXPECT_TRUE(command.exited());
  EXPECT_EQ(command.exit_status(), 127);
}

TEST(HeldCommand, LeavesNoChildWhenTheTracerGivesUp) {
  pid_t held = -1, running = -1;
  {
    Command never_released;
    ASSERT_EQ(never_released.StartHeld({"sleep", "1000"}), 0);
    held = never_released.pid();
    Command released;
    ASSERT_EQ(released.StartHeld({"sleep", "1000"}), 0);
    ASSERT_EQ(released.Release(), 0);
    running = released.pid();
  }
  // Reaped, so no longer there at all (not even a zombie).
  EXPECT_EQ(kill(held, 0), -1);
  EXPECT_EQ(errno, ESRCH);
  EXPECT_EQ(kill(running, 0), -1);
  EXPECT_EQ(errno, ESRCH);
}

// In a child: the signal mask it blocks is the whole process's.
TEST(HeldCommand, TheWaitPassesASignalOnAndSaysWhichCame) {
  const pid_t tester = fork();
  ASSERT_GE(tester, 0);
  if (tester == 0) {
    BlockWaitedSignals();
    Command command;
    if (command.StartHeld({"sleep", "1000"}) != 0 || command.Release() != 0) _exit(10);
    kill(getpid(), SIGTERM);  // taken by the wait, passed on to sleep
    const int first = WaitLoop(&command, 0, 0, [] { return true; }, {});
    if (first != SIGTERM) _exit(11);
    if (!command.killed() || command.exit_status() != 128 + SIGTERM) _exit(12);
    _exit(0);
  }
  int status = 0;
  ASSERT_EQ(waitpid(tester, &status, 0), tester);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

}  // namespace
}  // namespace tools
