// SPDX-License-Identifier: MIT
// Process-level programs (proctree, process-level counting groups) list a process's threads and
// open each one; a listed thread that exits before it is opened is no longer a target, and the
// set succeeds without it. Checked two ways: deterministically, with a listing that names a
// thread which has already exited, and for real, against a thread pool that keeps creating
// and ending threads while the sets run.
#include <gtest/gtest.h>
#include <pthread.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "support/counting.h"
#include "support/counting_fixture.h"
#include "support/fake_kernel.h"
#include "support/family_entry_points.h"

using namespace pmapi_test;

namespace {

// The id of a thread that existed a moment ago and has exited since.
pid_t ExitedThreadId() {
  pid_t tid = 0;
  std::thread([&] { tid = gettid(); }).join();
  return tid;
}

// Threads that start and end continuously until destroyed: the pool of a server.
class ChurningThreads {
 public:
  ChurningThreads() {
    for (int i = 0; i < 2; ++i) {
      spawners_.emplace_back([this] {
        while (!stop_) std::thread([] { sched_yield(); }).join();
      });
    }
  }
  ~ChurningThreads() {
    stop_ = true;
    for (std::thread &t : spawners_) t.join();
  }

 private:
  std::atomic<bool> stop_{false};
  std::vector<std::thread> spawners_;
};

class VanishingThreads : public GetppidTest {
 protected:
  // Sets `prog` through `family`, makes `n` getppid calls, reads exactly them into *data and
  // deletes the program.
  void ExpectExactCount(const FamilyOps &family, pm_prog_t *prog, long n, pm_data_t *data) {
    const int rc = family.Set(prog);
    ASSERT_EQ(rc, 0) << pm_strerror("set", rc);
    CallGetppid(n);
    ASSERT_EQ(family.Read(data), 0);
    EXPECT_EQ(data->accu[0], n);
    ASSERT_EQ(family.Delete(), 0);
  }
  // The same, 25 calls, with /proc/self/task listing this thread and one that has exited.
  void ExpectExactCountPastAnExitedThread(const FamilyOps &family, int mode, pm_data_t *data) {
    FakeKernel kernel;
    kernel.SetDirectory("/proc/self/task",
                        {std::to_string(gettid()), std::to_string(ExitedThreadId())});
    ScopedKernel scoped(&kernel);
    pm_prog_t prog = MakeProgram({getppid_}, PM_USER | PM_KERNEL | PM_COUNT | mode);
    ExpectExactCount(family, &prog, 25, data);
  }
};

TEST_F(VanishingThreads, ProcTreeSkipsAListedThreadThatExited) {
  pm_data_t data;
  ExpectExactCountPastAnExitedThread(SystemWide(), PM_PROCTREE, &data);
}

TEST_F(VanishingThreads, ProcessGroupSkipsAListedThreadThatExited) {
  pm_data_t data;
  ASSERT_NO_FATAL_FAILURE(ExpectExactCountPastAnExitedThread(MyGroup(), PM_PROCESS, &data));
  EXPECT_EQ(data.ginfo.members, 1) << "the exited thread never became a member";
}

TEST_F(VanishingThreads, TheNamedThreadMustStillExist) {
  // Only threads found by listing may vanish: the thread the caller named is the target.
  const pid_t gone = ExitedThreadId();
  pm_prog_t prog = MakeProgram({getppid_}, PM_USER | PM_KERNEL | PM_PROCESS);
  EXPECT_EQ(pm_set_program_group(getpid(), gone, &prog), Pmapi_NoSuchThread);
}

TEST_F(VanishingThreads, ProcTreeSetsSucceedWhileThreadsComeAndGo) {
  ChurningThreads pool;
  pm_prog_t prog = MakeProgram({getppid_}, PM_USER | PM_KERNEL | PM_COUNT | PM_PROCTREE);
  int failures = 0;
  for (int i = 0; i < 200; ++i) {
    const int rc = pm_set_program(&prog);
    if (rc != 0) {
      ++failures;
      ADD_FAILURE() << "set " << i << ": " << pm_strerror("set", rc);
      continue;
    }
    CallGetppid(3);
    pm_data_t data;
    ASSERT_EQ(pm_get_data(&data), 0);
    EXPECT_EQ(data.accu[0], 3) << "the pool's threads make no getppid call";
    ASSERT_EQ(pm_delete_program(), 0);
  }
  EXPECT_EQ(failures, 0);
}

TEST_F(VanishingThreads, ProcessGroupSetsSucceedWhileThreadsComeAndGo) {
  ChurningThreads pool;
  pm_prog_t prog = MakeProgram({getppid_}, PM_USER | PM_KERNEL | PM_COUNT | PM_PROCESS);
  for (int i = 0; i < 30; ++i) {
    SCOPED_TRACE("set " + std::to_string(i));
    pm_data_t data;
    ASSERT_NO_FATAL_FAILURE(ExpectExactCount(MyGroup(), &prog, 4, &data));
  }
}

TEST_F(VanishingThreads, ThirdPartyProcessGroupSetsSucceedWhileTheTargetsThreadsComeAndGo) {
  int ready[2];
  ASSERT_EQ(pipe(ready), 0);
  const pid_t child = fork();
  if (child == 0) {
    ChurningThreads pool;
    char byte = 1;
    if (write(ready[1], &byte, 1) != 1) _exit(1);
    for (;;) pause();
  }
  char byte = 0;
  ASSERT_EQ(read(ready[0], &byte, 1), 1);
  pm_prog_t prog = MakeProgram({getppid_}, PM_USER | PM_KERNEL | PM_COUNT | PM_PROCESS);
  for (int i = 0; i < 30; ++i) {
    const int rc = pm_set_program_group(child, child, &prog);
    EXPECT_EQ(rc, 0) << "set " << i << ": " << pm_strerror("set", rc);
    if (rc == 0) {
      pm_data_t data;
      EXPECT_EQ(pm_get_data_group(child, child, &data), 0);
      EXPECT_EQ(data.accu[0], 0) << "the child's threads make no getppid call";
      EXPECT_EQ(pm_delete_program_group(child, child), 0);
    }
  }
  kill(child, SIGKILL);
  waitpid(child, nullptr, 0);
  close(ready[0]);
  close(ready[1]);
}

}  // namespace
