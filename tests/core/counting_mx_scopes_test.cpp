// SPDX-License-Identifier: MIT
// Multiplexed programs on the real kernel, exactly: the test switches sets by hand (no
// rotator), so N getppid calls made while set k is current count N in set k and nothing in the
// others, in every scope: the calling thread (and a thread it starts, which inherits every
// set), another thread (_thread, _pthread), the whole machine (_cpu, _lcpu), counting groups
// (_mygroup, process-level, _group, _pgroup); and _mm with user-only and kernel-only sets.
#include <gtest/gtest.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <thread>

#include "core/counting_group.h"
#include "core/multiplexer.h"
#include "core/registry.h"
#include "support/counting.h"

using namespace pmapi_test;

namespace {

pmapi::Multiplexer *MxOf(const pmapi::Context *context) {
  return const_cast<pmapi::Multiplexer *>(context->multiplexer());
}

// A thread of this process that makes getppid calls when asked.
class Helper {
 public:
  Helper() : thread_([this] { Run(); }) {
    while (tid_ == 0) sched_yield();
  }
  ~Helper() {
    request_ = -1;
    thread_.join();
  }
  pid_t tid() const { return tid_; }
  void Call(long n) {
    request_ = n;
    while (request_ != 0) sched_yield();
  }

 private:
  void Run() {
    tid_ = static_cast<pid_t>(syscall(SYS_gettid));
    for (;;) {
      long n = request_;
      if (n < 0) return;
      if (n > 0) {
        CallGetppid(n);
        request_ = 0;
      }
      sched_yield();
    }
  }
  std::atomic<pid_t> tid_{0};
  std::atomic<long> request_{0};
  std::thread thread_;
};

class MxScopes : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(InitializeAll());
    getppid_ = EventId(kGetppid);
    getpid_ = EventId("syscalls:sys_enter_getpid");
    pmapi::DriveMultiplexersByHandForTesting(true);
    for (auto &set : sets_) {
      for (int &event : set) event = COUNT_NOTHING;
    }
    // {getppid} and {getppid, getpid}
    sets_[0][0] = getppid_;
    sets_[1][0] = getppid_;
    sets_[1][1] = getpid_;
    prog_.mode.w = PM_USER | PM_KERNEL;
    prog_.slice_duration = 10;
    prog_.nb_events_prog = 2;
    prog_.events_set = sets_;
  }
  void TearDown() override { pmapi::DriveMultiplexersByHandForTesting(false); }

  // Reads with `read` and checks set 0 and set 1's getppid counts.
  template <typename Read>
  void ExpectSets(Read read, long long set0, long long set1, bool at_least = false) {
    pm_data_mx_t data = {};
    ASSERT_EQ(read(&data), 0) << pm_strerror("read", 0);
    ASSERT_EQ(data.nb_accu_mx, 2);
    if (at_least) {
      EXPECT_GE(data.accu_set[0].accu_data[0], set0);
      EXPECT_GE(data.accu_set[1].accu_data[0], set1);
    } else {
      EXPECT_EQ(data.accu_set[0].accu_data[0], set0);
      EXPECT_EQ(data.accu_set[1].accu_data[0], set1);
    }
    free(data.accu_set);
  }

  int getppid_ = COUNT_NOTHING;
  int getpid_ = COUNT_NOTHING;
  pm_events_prog_t sets_[2];
  pm_prog_mx_t prog_ = {};
};

TEST_F(MxScopes, MyThreadAndTheThreadsItStarts) {
  prog_.mode.w |= PM_COUNT;
  ASSERT_EQ(pm_set_program_mythread_mx(&prog_), 0) << pm_strerror("set", 0);
  pmapi::Multiplexer *mx = MxOf(pmapi::t_my_context);
  CallGetppid(100);
  ASSERT_TRUE(mx->Switch().ok());
  CallGetppid(30);
  ExpectSets(pm_get_data_mythread_mx, 100, 30);
  long long child_sets[2] = {-1, -1};
  std::thread([&] {
    // Inherited: every set, counting, from zero; its own multiplexer.
    pmapi::Multiplexer *own = MxOf(pmapi::t_my_context);
    if (!own) return;
    CallGetppid(7);
    own->Switch();
    CallGetppid(9);
    pm_data_mx_t data = {};
    if (pm_get_data_mythread_mx(&data) != 0) return;
    child_sets[0] = data.accu_set[0].accu_data[0];
    child_sets[1] = data.accu_set[1].accu_data[0];
    free(data.accu_set);
  }).join();
  EXPECT_EQ(child_sets[0], 7);
  EXPECT_EQ(child_sets[1], 9);
  ExpectSets(pm_get_data_mythread_mx, 100, 30);
  timebasestruct_t stamp = {};
  pm_data_mx_t data = {};
  ASSERT_EQ(pm_get_tdata_mythread_mx(&data, &stamp), 0);
  EXPECT_NE(stamp.tb_high | stamp.tb_low, 0u);
  free(data.accu_set);
  ASSERT_EQ(pm_delete_program_mythread(), 0);
}

TEST_F(MxScopes, ThirdPartyThreadAndPthread) {
  Helper helper;
  ASSERT_EQ(pm_set_program_thread_mx(getpid(), helper.tid(), &prog_), 0) << pm_strerror("set", 0);
  EXPECT_EQ(pm_set_program_pthread_mx(getpid(), helper.tid(), 0, &prog_), Pmapi_ProgExists);
  ASSERT_EQ(pm_start_thread(getpid(), helper.tid()), 0);
  pmapi::Multiplexer *mx = MxOf(pmapi::Registry::Get().FindTarget(getpid(), helper.tid()));
  helper.Call(40);
  CallGetppid(1000);  // another thread: not counted
  ASSERT_TRUE(mx->Switch().ok());
  helper.Call(60);
  auto read = [&](pm_data_mx_t *d) { return pm_get_data_pthread_mx(getpid(), helper.tid(), 0, d); };
  ExpectSets(read, 40, 60);
  pm_prog_mx_t got = {};
  ASSERT_EQ(pm_get_program_thread_mx(getpid(), helper.tid(), &got), 0);
  EXPECT_EQ(got.nb_events_prog, 2);
  EXPECT_TRUE(got.mode.b.count);
  free(got.events_set);
  ASSERT_EQ(pm_delete_program_thread(getpid(), helper.tid()), 0);
}

TEST_F(MxScopes, SystemWideWithCpuAndLcpuReads) {
  ASSERT_EQ(pm_set_program_mx(&prog_), 0) << pm_strerror("set", 0);
  EXPECT_EQ(pm_set_program_mythread_mx(&prog_), Pmapi_SysThreadConflict);
  ASSERT_EQ(pm_start(), 0);
  pmapi::Multiplexer *mx = MxOf(pmapi::Registry::Get().system_context());
  CallGetppid(500);
  ASSERT_TRUE(mx->Switch().ok());
  CallGetppid(300);
  ASSERT_EQ(pm_stop(), 0);
  // Machine-wide counts: other processes may call getppid too.
  ExpectSets(pm_get_data_mx, 500, 300, /*at_least=*/true);
  pm_data_mx_t all = {};
  ASSERT_EQ(pm_get_data_mx(&all), 0);
  long long by_cpu[2] = {0, 0}, by_lcpu[2] = {0, 0};
  const long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  for (int cpu = 0; cpu < cpus; ++cpu) {
    pm_data_mx_t one = {};
    ASSERT_EQ(pm_get_data_cpu_mx(cpu, &one), 0) << pm_strerror("cpu", 0);
    for (int k = 0; k < 2; ++k) by_cpu[k] += one.accu_set[k].accu_data[0];
    free(one.accu_set);
    ASSERT_EQ(pm_get_data_lcpu_mx(cpu, &one), 0) << pm_strerror("lcpu", 0);
    for (int k = 0; k < 2; ++k) by_lcpu[k] += one.accu_set[k].accu_data[0];
    free(one.accu_set);
  }
  for (int k = 0; k < 2; ++k) {
    EXPECT_EQ(by_cpu[k], all.accu_set[k].accu_data[0]) << "stopped: the CPUs sum to the whole";
    EXPECT_EQ(by_lcpu[k], all.accu_set[k].accu_data[0]);
  }
  free(all.accu_set);
  pm_data_mx_t one = {};
  EXPECT_EQ(pm_get_data_cpu_mx(static_cast<int>(cpus), &one), Pmapi_InvalidCpu);
  EXPECT_EQ(one.accu_set, nullptr);
  ASSERT_EQ(pm_delete_program(), 0);
}

TEST_F(MxScopes, MyGroupSumsTheCallerAndNewThreads) {
  prog_.mode.w |= PM_COUNT;
  ASSERT_EQ(pm_set_program_mygroup_mx(&prog_), 0) << pm_strerror("set", 0);
  pmapi::Context *mine = pmapi::t_my_context;
  pmapi::Multiplexer *group_mx = MxOf(mine->group()->roots());
  CallGetppid(10);
  std::thread([] { CallGetppid(5); }).join();  // inherited counters, set 0's slice
  ASSERT_TRUE(group_mx->Switch().ok());
  ASSERT_TRUE(MxOf(mine)->Switch().ok());
  CallGetppid(20);
  ExpectSets(pm_get_data_mygroup_mx, 15, 20);
  ExpectSets(pm_get_data_mythread_mx, 10, 20);
  pm_data_mx_t data = {};
  ASSERT_EQ(pm_get_data_mygroup_mx(&data), 0);
  EXPECT_EQ(data.ginfo.members, 2);
  EXPECT_EQ(data.ginfo.flags.b.consistent, 1u);
  free(data.accu_set);
  pm_prog_mx_t got = {};
  ASSERT_EQ(pm_get_program_mygroup_mx(&got), 0);
  EXPECT_EQ(got.nb_events_prog, 2);
  free(got.events_set);
  ASSERT_EQ(pm_stop_mygroup(), 0);
  CallGetppid(50);
  ExpectSets(pm_get_data_mygroup_mx, 15, 20);
  ASSERT_EQ(pm_delete_program_mygroup(), 0);
}

TEST_F(MxScopes, ProcessLevelMyGroupCountsEveryThread) {
  Helper helper;
  prog_.mode.w |= PM_COUNT | PM_PROCESS;
  ASSERT_EQ(pm_set_program_mygroup_mx(&prog_), 0) << pm_strerror("set", 0);
  pmapi::Multiplexer *group_mx = MxOf(pmapi::t_my_context->group()->roots());
  helper.Call(11);
  CallGetppid(4);
  ASSERT_TRUE(group_mx->Switch().ok());
  helper.Call(6);
  pm_data_mx_t data = {};
  ASSERT_EQ(pm_get_data_mygroup_mx(&data), 0);
  EXPECT_EQ(data.accu_set[0].accu_data[0], 15);
  EXPECT_EQ(data.accu_set[1].accu_data[0], 6);
  EXPECT_EQ(data.ginfo.flags.b.process, 1u);
  free(data.accu_set);
  ASSERT_EQ(pm_delete_program_mygroup(), 0);
}

TEST_F(MxScopes, ThirdPartyGroupAndPgroup) {
  Helper helper;
  prog_.mode.w |= PM_COUNT;
  ASSERT_EQ(pm_set_program_group_mx(getpid(), helper.tid(), &prog_), 0) << pm_strerror("set", 0);
  pmapi::Context *own = pmapi::Registry::Get().FindTarget(getpid(), helper.tid());
  helper.Call(8);
  ASSERT_TRUE(MxOf(own->group()->roots())->Switch().ok());
  helper.Call(3);
  auto read = [&](pm_data_mx_t *d) { return pm_get_data_pgroup_mx(getpid(), helper.tid(), 0, d); };
  ExpectSets(read, 8, 3);
  pm_prog_mm_t got = {};
  ASSERT_EQ(pm_get_program_group_mm(getpid(), helper.tid(), &got), 0);
  EXPECT_EQ(got.nb_set_prog, 2);
  EXPECT_EQ(got.prog_set[1].events[1], getpid_);
  free(got.prog_set);
  ASSERT_EQ(pm_delete_program_group(getpid(), helper.tid()), 0);
}

// Signals sent to this thread (SIGWINCH, ignored by default): the kernel fires
// signal:signal_generate from kernel code, so only a set that counts kernel mode sees it.
void SendSignals(int n) {
  for (int i = 0; i < n; ++i) syscall(SYS_tgkill, getpid(), syscall(SYS_gettid), SIGWINCH);
}

TEST_F(MxScopes, MultiModeKernelSetSeesTracepointUserSetDoesNot) {
  const int generate = EventId("signal:signal_generate");
  pm_prog_t sets[2] = {MakeProgram({generate, getppid_}, PM_USER | PM_COUNT),
                       MakeProgram({generate, getppid_}, PM_KERNEL)};
  pm_prog_mm_t prog = {10, 2, sets};
  ASSERT_EQ(pm_set_program_mythread_mm(&prog), 0) << pm_strerror("set", 0);
  pmapi::Multiplexer *mx = MxOf(pmapi::t_my_context);
  SendSignals(50);
  CallGetppid(20);
  ASSERT_TRUE(mx->Switch().ok());
  SendSignals(70);
  CallGetppid(30);
  pm_data_mx_t data = {};
  ASSERT_EQ(pm_get_data_mythread_mx(&data), 0);
  EXPECT_EQ(data.accu_set[0].accu_data[0], 0)
      << "user mode: the kernel-side tracepoint is not seen";
  EXPECT_EQ(data.accu_set[1].accu_data[0], 70) << "kernel mode sees every signal";
  // A syscall-entry tracepoint carries the caller's user registers: both modes see it.
  EXPECT_EQ(data.accu_set[0].accu_data[1], 20);
  EXPECT_EQ(data.accu_set[1].accu_data[1], 30);
  free(data.accu_set);
  ASSERT_EQ(pm_delete_program_mythread(), 0);
}

TEST(MxFork, ChildHasNoContextAndRotatesItsOwn) {
  ASSERT_TRUE(InitializeAll());
  pm_events_prog_t sets[2];
  for (auto &set : sets) {
    for (int &event : set) event = COUNT_NOTHING;
    set[0] = EventId(kGetppid);
  }
  pm_prog_mx_t prog = {};
  prog.mode.w = PM_USER | PM_KERNEL | PM_COUNT;
  prog.slice_duration = 1;
  prog.nb_events_prog = 2;
  prog.events_set = sets;
  ASSERT_EQ(pm_set_program_mythread_mx(&prog), 0);  // the rotator runs from now on
  for (int round = 0; round < 20; ++round) {
    const int status = InChild([&] {
      pm_data_mx_t data = {};
      if (pm_get_data_mythread_mx(&data) != Pmapi_NoSetProg) _exit(2);
      if (pm_set_program_mythread_mx(&prog) != 0) _exit(3);
      // The child's own rotator switches its sets: rounds grow (within 10 s on a loaded box:
      // under a sanitizer with the suite running beside it, 2 s once proved too short).
      for (int waited = 0; data.nb_mx_round < 1; ++waited) {
        free(data.accu_set);
        data.accu_set = nullptr;
        if (waited > 10000) _exit(4);
        usleep(1000);
        if (pm_get_data_mythread_mx(&data) != 0) _exit(4);
      }
      free(data.accu_set);
      if (pm_reset_data_mythread() != 0) _exit(5);
      CallGetppid(10);
      if (pm_get_data_mythread_mx(&data) != 0) _exit(5);
      // At most once each; a call made while the rotator sits between one set's disable and
      // the next one's enable counts nowhere (docs/counting.md).
      const long long seen = data.accu_set[0].accu_data[0] + data.accu_set[1].accu_data[0];
      free(data.accu_set);
      if (seen > 10) _exit(7);
      if (pm_delete_program_mythread() != 0) _exit(6);
    });
    ASSERT_EQ(status, 0) << "round " << round;
  }
  ASSERT_EQ(pm_delete_program_mythread(), 0);
}

}  // namespace
