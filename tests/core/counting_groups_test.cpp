// SPDX-License-Identifier: MIT
// Counting groups (_mygroup, _group, _pgroup): threads and processes whose
// counts accumulate together (§1.4, §1.5), checked exactly with the getppid
// tracepoint: N calls, N counts.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <pthread.h>
#include <sys/wait.h>
#include <unistd.h>

#include <dirent.h>
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

#include "base/settings.h"
#include "core/fork_counter.h"
#include "pmapi_settings.h"
#include "support/child_process.h"
#include "support/counting.h"
#include "support/counting_fixture.h"
#include "support/fake_kernel.h"
#include "support/timebase.h"

using namespace pmapi_test;

namespace {

// Lets a test hold a thread at a point until the test releases it.
class Latch {
 public:
  void Open() {
    std::lock_guard<std::mutex> lock(mutex_);
    open_ = true;
    cv_.notify_all();
  }
  void Wait() {
    std::unique_lock<std::mutex> lock(mutex_);
    cv_.wait(lock, [&] { return open_; });
  }

 private:
  std::mutex mutex_;
  std::condition_variable cv_;
  bool open_ = false;
};

int ThreadsInThisProcess() {
  int n = 0;
  DIR *dir = opendir("/proc/self/task");
  while (dirent *entry = readdir(dir)) n += entry->d_name[0] != '.';
  closedir(dir);
  return n;
}

class Groups : public GetppidTest {
 protected:
  void AfterInitialize() override { baseline_fds_ = CountPerfDescriptors(); }
  void TearDown() override {
    pm_delete_program_mygroup();
    pm_delete_program_mythread();
    EXPECT_EQ(CountPerfDescriptors(), baseline_fds_) << "every descriptor closed";
  }
  pm_prog_t Program(int extra_mode = 0) const {
    return MakeProgram({getppid_}, PM_USER | PM_KERNEL | PM_COUNT | extra_mode);
  }
  static pm_data_t GroupData() {
    pm_data_t data{};
    int rc = pm_get_data_mygroup(&data);
    EXPECT_EQ(rc, 0) << pm_strerror("pm_get_data_mygroup", rc);
    return data;
  }

  int baseline_fds_ = 0;
};

TEST_F(Groups, ThreadsCreatedAfterSetSumToMTimesN) {
  pm_prog_t prog = Program();
  ASSERT_EQ(pm_set_program_mygroup(&prog), 0);
  constexpr int kThreads = 6;
  constexpr long kCalls = 1000;
  std::vector<long long> own(kThreads, -1);
  std::vector<std::thread> workers;
  for (int t = 0; t < kThreads; ++t) {
    workers.emplace_back([&, t] {
      CallGetppid(kCalls);
      pm_data_t data;
      if (pm_get_data_mythread(&data) == 0) own[t] = data.accu[0];
    });
  }
  for (std::thread &worker : workers) worker.join();
  pm_data_t data = GroupData();
  EXPECT_EQ(data.accu[0], kThreads * kCalls);
  EXPECT_EQ(data.ginfo.members, kThreads + 1) << "the caller and every thread it started";
  EXPECT_EQ(data.ginfo.flags.b.consistent, 1u);
  EXPECT_EQ(data.ginfo.flags.b.process, 0u);
  for (long long count : own) EXPECT_EQ(count, kCalls) << "each member keeps its own data";
}

TEST_F(Groups, TheCallerCountsInTheGroupAndInItsOwnContext) {
  pm_prog_t prog = Program();
  ASSERT_EQ(pm_set_program_mygroup(&prog), 0);
  CallGetppid(123);
  EXPECT_EQ(GroupData().accu[0], 123);
  pm_data_t own;
  ASSERT_EQ(pm_get_data_mythread(&own), 0);
  EXPECT_EQ(own.accu[0], 123);
  pm_prog_t got;
  ASSERT_EQ(pm_get_program_mygroup(&got), 0);
  EXPECT_EQ(got.events[0], getppid_);
  EXPECT_TRUE(got.mode.b.count);
}

TEST_F(Groups, AForkedChildProcessCountsIntoTheCallersGroup) {
  pm_prog_t prog = Program();
  ASSERT_EQ(pm_set_program_mygroup(&prog), 0);
  CallGetppid(10);
  EXPECT_EQ(InChild([] {
              CallGetppid(400);
              // The child holds no context of its own (AIX gives a child none).
              pm_data_t data;
              _exit(pm_get_data_mygroup(&data) == Pmapi_NoSetProg ? 0 : 1);
            }),
            0);
  pm_data_t data = GroupData();
  EXPECT_EQ(data.accu[0], 410);
  EXPECT_EQ(data.ginfo.members, 2);
}

// The child's copies of the group's perf descriptors are closed at the fork: it counts into the
// caller's group through the inherited events, not through descriptors it could never read.
TEST_F(Groups, AForkedChildHoldsNoneOfTheGroupsDescriptors) {
  const int before = CountPerfDescriptors();
  ASSERT_GE(before, 0);
  pm_prog_t prog = Program();
  ASSERT_EQ(pm_set_program_mygroup(&prog), 0);
  ASSERT_GT(CountPerfDescriptors(), before);
  EXPECT_EQ(InChild([before] {
              const int held = CountPerfDescriptors();
              _exit(held >= 0 && held <= before ? 0 : 1);
            }),
            0);
}

TEST_F(Groups, AProcessLevelGroupIncludesThreadsThatAlreadyExisted) {
  Latch go;
  std::atomic<long long> own_rc{-1};
  std::thread existing([&] {
    go.Wait();
    CallGetppid(250);
    pm_data_t data;
    own_rc = pm_get_data_mythread(&data);
  });
  const int threads_before = ThreadsInThisProcess();
  pm_prog_t prog = Program(PM_PROCESS);
  ASSERT_EQ(pm_set_program_mygroup(&prog), 0);
  go.Open();
  existing.join();
  CallGetppid(50);
  pm_data_t data = GroupData();
  EXPECT_EQ(data.accu[0], 300);
  EXPECT_EQ(data.ginfo.flags.b.process, 1u);
  EXPECT_EQ(data.ginfo.members, threads_before);
  EXPECT_EQ(own_rc, Pmapi_NoSetProg) << "threads that existed are counted, not given contexts";
}

TEST_F(Groups, AProcessLevelGroupIsRefusedWhileAThreadHasAContext) {
  Latch programmed, done;
  std::thread other([&] {
    pm_prog_t prog = Program();
    pm_set_program_mythread(&prog);
    programmed.Open();
    done.Wait();
    pm_delete_program_mythread();
  });
  programmed.Wait();
  pm_prog_t prog = Program(PM_PROCESS);
  EXPECT_EQ(pm_set_program_mygroup(&prog), Pmapi_ProgExists);
  EXPECT_NE(std::string(pm_strerror("", Pmapi_ProgExists)).find("process-level group"),
            std::string::npos);
  done.Open();
  other.join();
}

TEST_F(Groups, AMemberThatResetsItsOwnDataHasItSubtracted) {
  pm_prog_t prog = Program();
  ASSERT_EQ(pm_set_program_mygroup(&prog), 0);
  long long own_after = -1;
  std::thread worker([&] {
    CallGetppid(100);
    pm_reset_data_mythread();
    CallGetppid(30);
    pm_data_t data;
    if (pm_get_data_mythread(&data) == 0) own_after = data.accu[0];
  });
  worker.join();
  CallGetppid(5);
  pm_data_t data = GroupData();
  EXPECT_EQ(own_after, 30);
  EXPECT_EQ(data.accu[0], 35) << "the member's 100 calls before its reset left the group";
  EXPECT_EQ(data.ginfo.flags.b.consistent, 1u) << "a member reset keeps the group consistent";
}

TEST_F(Groups, AMemberThatDeletesItsContextLeavesTheGroup) {
  pm_prog_t prog = Program();
  ASSERT_EQ(pm_set_program_mygroup(&prog), 0);
  int delete_rc = -1;
  std::thread worker([&] {
    CallGetppid(100);
    delete_rc = pm_delete_program_mythread();
    CallGetppid(70);  // no longer a member: not counted
  });
  worker.join();
  CallGetppid(8);
  pm_data_t data = GroupData();
  EXPECT_EQ(delete_rc, 0);
  EXPECT_EQ(data.accu[0], 8);
  EXPECT_EQ(data.ginfo.members, 2) << "members counts every thread that belonged";
}

TEST_F(Groups, AThreadThatExitsKeepsItsContribution) {
  pm_prog_t prog = Program();
  ASSERT_EQ(pm_set_program_mygroup(&prog), 0);
  std::thread([] { CallGetppid(77); }).join();
  pm_data_t data = GroupData();
  EXPECT_EQ(data.accu[0], 77);
  EXPECT_EQ(data.ginfo.members, 2);
}

TEST_F(Groups, AGroupResetWithSeveralMembersMakesTheDataInconsistent) {
  pm_prog_t prog = Program();
  ASSERT_EQ(pm_set_program_mygroup(&prog), 0);
  CallGetppid(20);
  ASSERT_EQ(pm_reset_data_mygroup(), 0);
  pm_data_t data = GroupData();
  EXPECT_EQ(data.accu[0], 0);
  EXPECT_EQ(data.ginfo.flags.b.consistent, 1u) << "one member: still its sum";
  pm_data_t own;
  ASSERT_EQ(pm_get_data_mythread(&own), 0);
  EXPECT_EQ(own.accu[0], 0) << "the group reset resets the caller's data too";

  std::thread([] { CallGetppid(40); }).join();
  ASSERT_EQ(pm_reset_data_mygroup(), 0);
  CallGetppid(3);
  data = GroupData();
  EXPECT_EQ(data.accu[0], 3);
  EXPECT_EQ(data.ginfo.flags.b.consistent, 0u);
  EXPECT_EQ(data.ginfo.members, 2) << "a reset does not forget members";
}

TEST_F(Groups, StoppingTheGroupStopsEveryMember) {
  pm_prog_t prog = Program();
  ASSERT_EQ(pm_set_program_mygroup(&prog), 0);
  Latch stopped, worked_while_stopped, started, finished;
  long long own_while_stopped = -1, own_at_end = -1;
  std::thread worker([&] {
    stopped.Wait();
    CallGetppid(500);
    pm_data_t data;
    if (pm_get_data_mythread(&data) == 0) own_while_stopped = data.accu[0];
    worked_while_stopped.Open();
    started.Wait();
    CallGetppid(60);
    if (pm_get_data_mythread(&data) == 0) own_at_end = data.accu[0];
    finished.Open();
  });
  ASSERT_EQ(pm_stop_mygroup(), 0);
  EXPECT_EQ(pm_stop_mygroup(), Pmapi_NotCounting);
  stopped.Open();
  worked_while_stopped.Wait();
  pm_prog_t got;
  ASSERT_EQ(pm_get_program_mygroup(&got), 0);
  EXPECT_FALSE(got.mode.b.count);
  ASSERT_EQ(pm_start_mygroup(), 0);
  started.Open();
  finished.Wait();
  worker.join();
  EXPECT_EQ(own_while_stopped, 0) << "the member's own counting stopped with the group";
  EXPECT_EQ(own_at_end, 60) << "its own state was on: it resumed with the group";
  EXPECT_EQ(GroupData().accu[0], 60);
}

TEST_F(Groups, AGroupSetWithoutCountStartsOnlyWhenStarted) {
  pm_prog_t prog = MakeProgram({getppid_}, PM_USER | PM_KERNEL);
  ASSERT_EQ(pm_set_program_mygroup(&prog), 0);
  CallGetppid(90);
  EXPECT_EQ(GroupData().accu[0], 0);
  timebasestruct_t when{};
  ASSERT_EQ(pm_tstart_mygroup(&when), 0);
  EXPECT_NE(when.tb_high | when.tb_low, 0u);
  CallGetppid(9);
  pm_data_t own;
  ASSERT_EQ(pm_get_data_mythread(&own), 0);
  EXPECT_EQ(own.accu[0], 9) << "starting the group starts the caller";
  ASSERT_EQ(pm_tstop_mygroup(&when), 0);
  CallGetppid(9);
  EXPECT_EQ(GroupData().accu[0], 9);
}

TEST_F(Groups, DeletingTheGroupDeletesEveryMembersContext) {
  pm_prog_t prog = Program();
  ASSERT_EQ(pm_set_program_mygroup(&prog), 0);
  Latch member_ready, deleted;
  int read_rc = -1, set_rc = -1;
  std::thread worker([&] {
    member_ready.Open();
    deleted.Wait();
    pm_data_t data;
    read_rc = pm_get_data_mythread(&data);
    pm_prog_t own = MakeProgram({getppid_}, PM_USER | PM_COUNT);
    set_rc = pm_set_program_mythread(&own);
    pm_delete_program_mythread();
  });
  member_ready.Wait();
  ASSERT_EQ(pm_delete_program_mygroup(), 0);
  deleted.Open();
  worker.join();
  EXPECT_EQ(read_rc, Pmapi_NoSetProg);
  EXPECT_EQ(set_rc, 0) << "a former member can be programmed afresh";
  pm_data_t data;
  EXPECT_EQ(pm_get_data_mygroup(&data), Pmapi_NoSetProg);
  EXPECT_EQ(pm_get_data_mythread(&data), Pmapi_NoSetProg);
}

TEST_F(Groups, BadCallsGetCodes) {
  pm_data_t data;
  EXPECT_EQ(pm_get_data_mygroup(&data), Pmapi_NoSetProg);
  EXPECT_EQ(pm_start_mygroup(), Pmapi_NoSetProg);
  EXPECT_EQ(pm_delete_program_mygroup(), Pmapi_NoSetProg);
  EXPECT_EQ(pm_set_program_mygroup(nullptr), Pmapi_InvalidArg);

  pm_prog_t prog = Program();
  ASSERT_EQ(pm_set_program_mythread(&prog), 0);
  EXPECT_EQ(pm_get_data_mygroup(&data), Pmapi_NoSetProg) << "a thread context is not a group";
  EXPECT_EQ(pm_set_program_mygroup(&prog), Pmapi_ProgExists);
  ASSERT_EQ(pm_delete_program_mythread(), 0);

  ASSERT_EQ(pm_set_program_mygroup(&prog), 0);
  EXPECT_EQ(pm_set_program_mygroup(&prog), Pmapi_ProgExists);
  EXPECT_EQ(pm_set_program_mythread(&prog), Pmapi_ProgExists);
  EXPECT_EQ(pm_get_data_mygroup(nullptr), Pmapi_InvalidArg);
  EXPECT_EQ(pm_get_program_mygroup(nullptr), Pmapi_InvalidArg);
  EXPECT_EQ(pm_tstart_mygroup(nullptr), Pmapi_InvalidArg);
  EXPECT_EQ(pm_get_Tdata_mygroup(&data, nullptr), Pmapi_InvalidArg);
  EXPECT_EQ(pm_set_program(&prog), Pmapi_SysThreadConflict) << "no system-wide beside a group";

  pm_prog_t bad_group = MakeProgram({999999}, PM_USER | PM_IS_GROUP);
  ASSERT_EQ(pm_delete_program_mygroup(), 0);
  EXPECT_EQ(pm_set_program_mygroup(&bad_group), Pmapi_InvalidGroup);
  pm_prog_t no_domain = MakeProgram({getppid_}, PM_COUNT);
  EXPECT_EQ(pm_set_program_mygroup(&no_domain), Pmapi_NoDomain);
  EXPECT_EQ(pm_get_data_mygroup(&data), Pmapi_NoSetProg) << "a refused set leaves nothing";
}

TEST_F(Groups, TdataReportsTheTimeTheGroupCounted) {
  pm_prog_t prog = Program();
  ASSERT_EQ(pm_set_program_mygroup(&prog), 0);
  CallGetppid(10);
  pm_data_t data;
  pm_accu_time_t times{};
  ASSERT_EQ(pm_get_Tdata_mygroup(&data, &times), 0);
  EXPECT_EQ(data.accu[0], 10);
  EXPECT_GT(TimebaseNanos(times.accu_timebase), 0u);
}

TEST_F(Groups, WithoutTheForkTracepointMembersAreTheThreadsSeenJoining) {
  FakeKernel kernel;
  kernel.FailWith(FakeKernel::Op::kReadFile, EACCES, "/sys/kernel/tracing/events/sched/");
  kernel.FailWith(FakeKernel::Op::kReadFile, EACCES, "/sys/kernel/debug/tracing/events/sched/");
  ScopedKernel scoped(&kernel);
  pm_prog_t prog = Program();
  ASSERT_EQ(pm_set_program_mygroup(&prog), 0);
  std::thread([] { CallGetppid(5); }).join();
  std::thread([] { CallGetppid(6); }).join();
  pm_data_t data = GroupData();
  EXPECT_EQ(data.accu[0], 11);
  EXPECT_EQ(data.ginfo.members, 3);
  ASSERT_EQ(pm_delete_program_mygroup(), 0);
}

TEST_F(Groups, AFailedOpenLeavesNoHalfBuiltGroup) {
  FakeKernel kernel;
  kernel.SetPerfEventOpenHook([](const perf_event_attr &attr) {
    return attr.inherit ? EMFILE : 0;  // the group's counters, not the caller's own
  });
  ScopedKernel scoped(&kernel);
  pm_prog_t prog = Program();
  EXPECT_EQ(pm_set_program_mygroup(&prog), Pmapi_TooManyFiles);
  pm_data_t data;
  EXPECT_EQ(pm_get_data_mygroup(&data), Pmapi_NoSetProg);
  EXPECT_EQ(pm_get_data_mythread(&data), Pmapi_NoSetProg);
  EXPECT_EQ(CountPerfDescriptors(), baseline_fds_);
}

int ExitStatus(pid_t pid) {
  int status = 0;
  if (waitpid(pid, &status, 0) != pid) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TEST_F(Groups, AThirdPartyGroupCountsAChildAndEverythingItStarts) {
  // Waits for Go() before running, as a debugger's target would wait stopped.
  CallingChild target([] {
    CallGetppid(100);
    pid_t grandchild = fork();
    if (grandchild == 0) {
      CallGetppid(50);
      _exit(0);
    }
    std::thread([] { CallGetppid(25); }).join();
    if (ExitStatus(grandchild) != 0) _exit(3);
  });
  ASSERT_TRUE(target.ok());
  const pid_t child = target.pid();
  pm_prog_t prog = Program();
  ASSERT_EQ(pm_set_program_group(child, child, &prog), 0);
  ASSERT_TRUE(target.Go());
  ASSERT_EQ(target.Finish(), 0);

  pm_data_t data;
  ASSERT_EQ(pm_get_data_group(child, child, &data), 0);
  EXPECT_EQ(data.accu[0], 175) << "the child, its thread and its own child";
  EXPECT_EQ(data.ginfo.members, 3);
  pm_data_t own;
  ASSERT_EQ(pm_get_data_thread(child, child, &own), 0);
  EXPECT_EQ(own.accu[0], 100) << "the target's own context counts only the target";
  pm_prog_t got;
  ASSERT_EQ(pm_get_program_pgroup(child, child, 0, &got), 0);
  EXPECT_EQ(got.events[0], getppid_);
  EXPECT_EQ(pm_stop_group(child, child), 0);
  EXPECT_EQ(pm_stop_group(child, child), Pmapi_NotCounting);
  EXPECT_EQ(pm_reset_data_group(child, child), 0);
  ASSERT_EQ(pm_get_data_group(child, child, &data), 0);
  EXPECT_EQ(data.accu[0], 0);
  EXPECT_EQ(pm_delete_program_group(child, child), 0);
  EXPECT_EQ(pm_get_data_group(child, child, &data), Pmapi_NoSetProg);
  EXPECT_EQ(pm_get_data_thread(child, child, &own), Pmapi_NoSetProg);
}

TEST_F(Groups, AThirdPartyProcessLevelGroupIncludesTheTargetsExistingThreads) {
  int go[2], ready[2];
  ASSERT_EQ(pipe(go), 0);
  ASSERT_EQ(pipe(ready), 0);
  pid_t child = fork();
  if (child == 0) {
    std::thread existing([&] {
      char byte;
      if (read(go[0], &byte, 1) == 1) CallGetppid(70);
    });
    if (write(ready[1], "r", 1) != 1) _exit(2);
    char byte;
    if (read(go[0], &byte, 1) == 1) CallGetppid(30);
    existing.join();
    _exit(0);
  }
  char byte;
  ASSERT_EQ(read(ready[0], &byte, 1), 1);
  pm_prog_t prog = Program(PM_PROCESS);
  ASSERT_EQ(pm_set_program_pgroup(child, child, 0, &prog), 0);
  ASSERT_EQ(write(go[1], "gg", 2), 2);
  ASSERT_EQ(ExitStatus(child), 0);
  for (int fd : {go[0], go[1], ready[0], ready[1]}) close(fd);
  pm_data_t data;
  ASSERT_EQ(pm_get_data_pgroup(child, child, 0, &data), 0);
  EXPECT_EQ(data.accu[0], 100);
  EXPECT_EQ(data.ginfo.flags.b.process, 1u);
  EXPECT_EQ(data.ginfo.members, 2);
  EXPECT_EQ(pm_delete_program_pgroup(child, child, 0), 0);
}

// A target that starts a thread while its group is being opened, between the leader's open and
// a member's: the thread copies the group as it was then, and the kernel refuses every group
// read (ECHILD) while that thread lives. The set opens the group anew instead; the thread,
// started before the set returned, is not a member.
TEST_F(Groups, AThreadStartedWhileTheGroupOpensLeavesItReadable) {
  CallingChild target([] { std::thread([] { pause(); }).detach(); });
  ASSERT_TRUE(target.ok());
  const pid_t child = target.pid();
  FakeKernel kernel;
  bool started = false;
  kernel.SetPerfEventOpenHook([&](const perf_event_attr &attr) {
    // A member of the target's group (the leader is opened disabled): the thread starts now.
    if (attr.inherit && !attr.disabled && !started) started = target.Go();
    return 0;
  });
  ScopedKernel scoped(&kernel);
  pm_prog_t prog = MakeProgram({getppid_, EventId("syscalls:sys_enter_getpgid")},
                               PM_USER | PM_KERNEL | PM_COUNT);
  ASSERT_EQ(pm_set_program_group(child, child, &prog), 0);
  ASSERT_TRUE(started);
  ASSERT_TRUE(target.Calls(25));
  pm_data_t data;
  const int rc = pm_get_data_group(child, child, &data);
  ASSERT_EQ(rc, 0) << pm_strerror("pm_get_data_group", rc);
  EXPECT_EQ(data.accu[0], 25);
  EXPECT_EQ(data.accu[1], 0);
  EXPECT_EQ(pm_delete_program_group(child, child), 0);
}

// A target that starts a thread during every attempt: the set gives up, says what to do, and
// leaves nothing open. (The kernel shows such a thread either way: a partial copy, or a member
// refused with EINVAL when the thread took the group's context along.)
TEST_F(Groups, ATargetThatKeepsStartingThreadsFailsTheSetCleanly) {
  CallingChild target([] { std::thread([] { pause(); }).detach(); });
  ASSERT_TRUE(target.ok());
  const pid_t child = target.pid();
  FakeKernel kernel;
  int started = 0;
  kernel.SetPerfEventOpenHook([&](const perf_event_attr &attr) {
    if (attr.inherit && !attr.disabled) started += target.Go();
    return 0;
  });
  ScopedKernel scoped(&kernel);
  pm_prog_t prog = MakeProgram({getppid_, EventId("syscalls:sys_enter_getpgid")},
                               PM_USER | PM_KERNEL | PM_COUNT);
  const int rc = pm_set_program_group(child, child, &prog);
  EXPECT_EQ(rc, Pmapi_KernelError);
  EXPECT_GT(started, 1) << "opened anew before giving up";
  const std::string message = pm_strerror("set", rc);
  EXPECT_NE(message.find("stop the target"), std::string::npos) << message;
  pm_data_t data;
  EXPECT_EQ(pm_get_data_group(child, child, &data), Pmapi_NoSetProg);
  EXPECT_EQ(pm_get_data_thread(child, child, &data), Pmapi_NoSetProg);
  EXPECT_EQ(CountPerfDescriptors(), baseline_fds_);
}

// A member the kernel refuses with EINVAL for good (not a thread's passing): the set tries each
// attempt, then reports the refusal itself, not a PMU that cannot exclude a mode, since the
// event opens alone as asked.
TEST_F(Groups, AMemberRefusedAtEveryAttemptIsReportedAfterTheLast) {
  FakeKernel kernel;
  int leaders = 0;
  kernel.SetPerfEventOpenHook([&](const perf_event_attr &attr) {
    if (!attr.inherit) return 0;
    leaders += attr.pinned;  // only a group's leader is pinned
    return attr.disabled ? 0 : EINVAL;
  });
  ScopedKernel scoped(&kernel);
  // One group to attempt: without the fork counter, the set has no second program to try.
  pm_prog_t prog = MakeProgram({getppid_, EventId("syscalls:sys_enter_getpgid")},
                               PM_USER | PM_COUNT | PM_NO_FORK_COUNTER);
  const int rc = pm_set_program_mygroup(&prog);
  EXPECT_EQ(rc, Pmapi_KernelError);
  EXPECT_EQ(leaders, 4) << "four attempts";
  const std::string message = pm_strerror("set", rc);
  EXPECT_NE(message.find("EINVAL"), std::string::npos) << message;
  EXPECT_NE(message.find("stop the target"), std::string::npos) << message;
  EXPECT_EQ(message.find("cannot exclude"), std::string::npos) << message;
  pm_data_t data;
  EXPECT_EQ(pm_get_data_mygroup(&data), Pmapi_NoSetProg);
  EXPECT_EQ(pm_get_data_mythread(&data), Pmapi_NoSetProg);
  EXPECT_EQ(CountPerfDescriptors(), baseline_fds_);
}

TEST_F(Groups, BadThirdPartyCallsGetCodes) {
  pm_prog_t prog = Program();
  pm_data_t data;
  EXPECT_EQ(pm_set_program_group(0, 1, &prog), Pmapi_InvalidArg);
  EXPECT_EQ(pm_set_program_pgroup(getpid(), 0, 42, &prog), Pmapi_Unsupported);
  EXPECT_EQ(pm_set_program_group(getpid(), 0x7ffffff0, &prog), Pmapi_NoSuchThread);
  EXPECT_EQ(pm_get_data_group(getpid(), getpid(), &data), Pmapi_NoSetProg);
  EXPECT_EQ(pm_set_program_group(getpid(), getpid(), nullptr), Pmapi_InvalidArg);

  ASSERT_EQ(pm_set_program_thread(getpid(), getpid(), &prog), 0);
  EXPECT_EQ(pm_set_program_group(getpid(), getpid(), &prog), Pmapi_ProgExists);
  EXPECT_EQ(pm_get_data_group(getpid(), getpid(), &data), Pmapi_NoSetProg)
      << "a _thread context is not a group";
  ASSERT_EQ(pm_delete_program_thread(getpid(), getpid()), 0);

  ASSERT_EQ(pm_set_program_group(getpid(), getpid(), &prog), 0);
  CallGetppid(12);
  ASSERT_EQ(pm_get_data_group(getpid(), getpid(), &data), 0);
  EXPECT_EQ(data.accu[0], 12) << "a process may name its own thread";
  EXPECT_EQ(pm_get_Tdata_group(getpid(), getpid(), &data, nullptr), Pmapi_InvalidArg);
  EXPECT_EQ(pm_delete_program_group(getpid(), getpid()), 0);
}

TEST_F(Groups, MembersJoiningAndLeavingConcurrentlyKeepTheSumExact) {
  pm_prog_t prog = Program();
  ASSERT_EQ(pm_set_program_mygroup(&prog), 0);
  constexpr int kOuter = 8, kRounds = 50;
  std::atomic<int> failures{0};
  std::vector<std::thread> outer;
  for (int t = 0; t < kOuter; ++t) {
    outer.emplace_back([&] {
      for (int round = 0; round < kRounds; ++round) {
        CallGetppid(1);  // stays in the group
        std::thread([&] {
          CallGetppid(10);
          if (pm_reset_data_mythread() != 0) ++failures;
          CallGetppid(5);
          if (pm_delete_program_mythread() != 0) ++failures;  // leaves with its 5
          CallGetppid(3);                                     // after leaving
        }).join();
        pm_data_t data;
        if (pm_get_data_mygroup(&data) != 0) ++failures;
      }
    });
  }
  for (std::thread &thread : outer) thread.join();
  EXPECT_EQ(failures, 0);
  pm_data_t data = GroupData();
  EXPECT_EQ(data.accu[0], kOuter * kRounds) << "only the calls of members that stayed";
  EXPECT_EQ(data.ginfo.members, 1 + kOuter + kOuter * kRounds);
}

TEST_F(Groups, AGroupThatStaysHalfTornDownIsReportedNotRetriedForever) {
  pm_prog_t prog = Program();
  ASSERT_EQ(pm_set_program_mygroup(&prog), 0);
  FakeKernel kernel;
  kernel.FailWith(FakeKernel::Op::kRead, ECHILD);
  ScopedKernel scoped(&kernel);
  pm_data_t data;
  const int rc = pm_get_data_mygroup(&data);
  EXPECT_EQ(rc, Pmapi_KernelError);
  EXPECT_NE(std::string(pm_strerror("", rc)).find("ECHILD"), std::string::npos);
  EXPECT_GT(kernel.Calls(FakeKernel::Op::kRead), 1) << "retried first";
}

TEST_F(Groups, TheForkTracepointAnchorIsOpenedOncePerProcess) {
  pm_prog_t prog = Program();
  ASSERT_EQ(pm_set_program_mygroup(&prog), 0);
  ASSERT_EQ(pm_delete_program_mygroup(), 0);
  const int anchor = pmapi::ForkCounterAnchorFd();
  ASSERT_GE(anchor, 0) << "as root with tracefs, the first group opens it";
  for (int i = 0; i < 5; ++i) {
    ASSERT_EQ(pm_set_program_mygroup(&prog), 0);
    ASSERT_EQ(pm_delete_program_mygroup(), 0);
  }
  EXPECT_EQ(pmapi::ForkCounterAnchorFd(), anchor) << "the same one descriptor";
  EXPECT_EQ(fcntl(anchor, F_GETFD) & FD_CLOEXEC, FD_CLOEXEC) << "programs exec'd do not inherit it";
  EXPECT_EQ(InChild([&] { _exit(pmapi::ForkCounterAnchorFd() == -1 ? 0 : 1); }), 0)
      << "a forked child closes its copy";
}

TEST_F(Groups, PmapiNoForkCounterCountsMembersInTheLibraryWithoutATracepoint) {
  const int anchor_before = pmapi::ForkCounterAnchorFd();  // -1 unless an earlier test made one
  pmapi::SetSetting("PMAPI_NO_FORK_COUNTER", "1");
  pm_prog_t prog = Program();
  const int rc = pm_set_program_mygroup(&prog);
  pmapi::SetSetting("PMAPI_NO_FORK_COUNTER", "");
  ASSERT_EQ(rc, 0);
  EXPECT_EQ(pmapi::ForkCounterAnchorFd(), anchor_before) << "no tracepoint was opened";
  EXPECT_EQ(CountPerfDescriptors(), baseline_fds_ + 2) << "the group's event and the caller's";
  std::thread([] { CallGetppid(4); }).join();
  pm_data_t data = GroupData();
  EXPECT_EQ(data.accu[0], 4);
  EXPECT_EQ(data.ginfo.members, 2);
}

// PM_NO_FORK_COUNTER is the setting for one program: its group opens no tracepoint, the next
// group of the process (without the bit) has its fork counter, and the setting stays as it was.
TEST_F(Groups, PmNoForkCounterIsAnOptionOfOneProgramNotOfTheProcess) {
  const char *setting = nullptr;
  ASSERT_EQ(pm_get_setting("PMAPI_NO_FORK_COUNTER", &setting), 0);
  ASSERT_STREQ(setting, "0");
  pm_prog_t without = Program(PM_NO_FORK_COUNTER);
  ASSERT_EQ(pm_set_program_mygroup(&without), 0);
  EXPECT_EQ(CountPerfDescriptors(), baseline_fds_ + 2) << "the group's event and the caller's";
  std::thread([] { CallGetppid(4); }).join();
  pm_data_t data = GroupData();
  EXPECT_EQ(data.accu[0], 4);
  EXPECT_EQ(data.ginfo.members, 2) << "counted by the library: the caller and its thread";
  pm_prog_t got;
  ASSERT_EQ(pm_get_program_mygroup(&got), 0);
  EXPECT_NE(got.mode.w & PM_NO_FORK_COUNTER, 0) << "handed back as set";
  ASSERT_EQ(pm_delete_program_mygroup(), 0);

  ASSERT_EQ(pm_get_setting("PMAPI_NO_FORK_COUNTER", &setting), 0);
  EXPECT_STREQ(setting, "0") << "the process-wide setting was never changed";
  pm_prog_t with = Program();
  ASSERT_EQ(pm_set_program_mygroup(&with), 0);
  EXPECT_EQ(CountPerfDescriptors(), baseline_fds_ + 3)
      << "the group's event, its fork counter and the caller's";
  ASSERT_EQ(pm_delete_program_mygroup(), 0);
}

TEST_F(Groups, ProcessLevelRefusalsNameTheirCause) {
  pm_prog_t prog = Program(PM_PROCESS);
  {
    FakeKernel kernel;
    kernel.FailWith(FakeKernel::Op::kListDirectory, EMFILE, "/proc/self/task");
    ScopedKernel scoped(&kernel);
    EXPECT_EQ(pm_set_program_mygroup(&prog), Pmapi_TooManyFiles);
    EXPECT_NE(std::string(pm_strerror("", Pmapi_TooManyFiles)).find("/proc/self/task"),
              std::string::npos);
  }
  pm_data_t data;
  EXPECT_EQ(pm_get_data_mygroup(&data), Pmapi_NoSetProg) << "nothing half-built";

  CallingChild target;
  ASSERT_TRUE(target.ok());
  const pid_t child = target.pid();
  {
    FakeKernel kernel;  // the process vanishes between the checks
    kernel.FailWith(FakeKernel::Op::kListDirectory, ENOENT, "/proc/" + std::to_string(child));
    ScopedKernel scoped(&kernel);
    EXPECT_EQ(pm_set_program_group(child, child, &prog), Pmapi_NoSuchThread);
    EXPECT_NE(std::string(pm_strerror("", Pmapi_NoSuchThread)).find("does not exist"),
              std::string::npos);
  }
  pm_prog_t plain = Program();
  ASSERT_EQ(pm_set_program_thread(child, child, &plain), 0);
  EXPECT_EQ(pm_set_program_pgroup(child, child, 0, &prog), Pmapi_ProgExists);
  EXPECT_NE(std::string(pm_strerror("", Pmapi_ProgExists)).find("already programmed"),
            std::string::npos);
  EXPECT_EQ(pm_get_data_group(child, child, &data), Pmapi_NoSetProg);
  EXPECT_NE(std::string(pm_strerror("", Pmapi_NoSetProg)).find("not in a counting group"),
            std::string::npos);
  EXPECT_EQ(pm_delete_program_thread(child, child), 0);
  EXPECT_EQ(target.Finish(), 0);
}

}  // namespace
