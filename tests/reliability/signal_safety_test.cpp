// SPDX-License-Identifier: MIT
// The calls a signal handler may make (docs/counting.md: the calling thread's _mythread reads,
// starts and stops) never allocate, on their error paths included: a handler that interrupts
// malloc and then allocates deadlocks on the arena lock. Checked two ways: by counting every
// allocation made while the calls run (this binary replaces malloc and friends), and for real,
// with a profiling timer whose handler calls them while the program allocates in a loop.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <string>

#include "support/allocation_counter.h"
#include "support/counting.h"
#include "support/fake_kernel.h"

using namespace pmapi_test;

namespace {

class SignalSafety : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!kCountsAllocations) {
      GTEST_SKIP() << "the sanitizer runtime owns malloc here, so allocations cannot be counted";
    }
    if (!InitializeAll()) return;
    getppid_ = EventId(kGetppid);
  }
  int getppid_ = COUNT_NOTHING;
};

// Every hot call, each checked for its return code and for no allocation.
void ExpectHotCallsAllocateNothing(int expected_read, int expected_start, int expected_stop) {
  pm_data_t data;
  timebasestruct_t time;
  pm_accu_time_t times;
  int rc = 0;
  EXPECT_EQ(AllocationsIn([&] { rc = pm_get_data_mythread(&data); }), 0);
  EXPECT_EQ(rc, expected_read);
  EXPECT_EQ(AllocationsIn([&] { rc = pm_get_tdata_mythread(&data, &time); }), 0);
  EXPECT_EQ(rc, expected_read);
  EXPECT_EQ(AllocationsIn([&] { rc = pm_get_Tdata_mythread(&data, &times); }), 0);
  EXPECT_EQ(rc, expected_read);
  EXPECT_EQ(AllocationsIn([&] { rc = pm_get_tdata_mythread(&data, nullptr); }), 0);
  EXPECT_EQ(rc, Pmapi_InvalidArg);
  EXPECT_EQ(AllocationsIn([&] { rc = pm_get_Tdata_mythread(&data, nullptr); }), 0);
  EXPECT_EQ(rc, Pmapi_InvalidArg);
  EXPECT_EQ(AllocationsIn([&] { rc = pm_tstart_mythread(nullptr); }), 0);
  EXPECT_EQ(rc, Pmapi_InvalidArg);
  EXPECT_EQ(AllocationsIn([&] { rc = pm_tstop_mythread(nullptr); }), 0);
  EXPECT_EQ(rc, Pmapi_InvalidArg);
  EXPECT_EQ(AllocationsIn([&] { rc = pm_start_mythread(); }), 0);
  EXPECT_EQ(rc, expected_start);
  EXPECT_EQ(AllocationsIn([&] { rc = pm_tstop_mythread(&time); }), 0);
  EXPECT_EQ(rc, expected_stop);
  EXPECT_EQ(AllocationsIn([&] { rc = pm_stop_mythread(); }), 0);
  EXPECT_EQ(rc, expected_start == 0 ? Pmapi_NotCounting : expected_stop);
  EXPECT_EQ(AllocationsIn([&] { rc = pm_tstart_mythread(&time); }), 0);
  EXPECT_EQ(rc, expected_start);
}

TEST_F(SignalSafety, TheCountingAllocatesNothingWhenEveryCallFails) {
  // The counter proves the watch works at all: a std::string of this size allocates.
  EXPECT_GT(AllocationsIn([] { std::string s(100, 'x'); }), 0);
  ExpectHotCallsAllocateNothing(Pmapi_NoSetProg, Pmapi_NoSetProg, Pmapi_NoSetProg);
  EXPECT_NE(std::string(pm_strerror("read", Pmapi_NoSetProg)).find("_mythread"), std::string::npos)
      << "the failure's detail is still recorded";
}

TEST_F(SignalSafety, HotCallsAllocateNothingWhileCounting) {
  pm_prog_t prog = MakeProgram({getppid_, EventId("task-clock")}, PM_USER | PM_KERNEL);
  ASSERT_EQ(pm_set_program_mythread(&prog), 0);
  ExpectHotCallsAllocateNothing(0, 0, 0);
  EXPECT_EQ(pm_delete_program_mythread(), 0);
}

TEST_F(SignalSafety, KernelFailuresOnTheHotPathAllocateNothing) {
  pm_prog_t prog = MakeProgram({getppid_}, PM_USER | PM_KERNEL | PM_COUNT);
  ASSERT_EQ(pm_set_program_mythread(&prog), 0);
  FakeKernel kernel;
  ScopedKernel scoped(&kernel);
  pm_data_t data;
  for (int err : {EINTR, EIO, ENODEV, EACCES, ENOMEM}) {
    kernel.Clear();
    kernel.FailWith(FakeKernel::Op::kRead, err);
    kernel.FailWith(FakeKernel::Op::kIoctl, err);
    // The fake's own bookkeeping allocates at the first call of each kind.
    pm_get_data_mythread(&data);
    pm_start_mythread();
    pm_stop_mythread();
    int rc = 0;
    EXPECT_EQ(AllocationsIn([&] { rc = pm_get_data_mythread(&data); }), 0) << strerror(err);
    EXPECT_NE(rc, 0);
    EXPECT_NE(std::string(pm_strerror("read", rc)).find(strerrorname_np(err)), std::string::npos)
        << "the detail names the errno";
    EXPECT_EQ(AllocationsIn([&] { rc = pm_start_mythread(); }), 0) << strerror(err);
    EXPECT_NE(rc, 0);
  }
  kernel.Clear();
  EXPECT_EQ(pm_delete_program_mythread(), 0);
}

// The real failure: a handler interrupting malloc. Runs in a child so that a deadlock is a
// test failure (the child is killed after two minutes), not a hung suite.
std::atomic<long> g_handler_calls{0};
constexpr long kHandlerCalls = 300;

void CallFromHandler(int) {
  pm_data_t data;
  pm_get_data_mythread(&data);
  pm_start_mythread();
  pm_stop_mythread();
  g_handler_calls.fetch_add(1, std::memory_order_relaxed);
}

int HandlerInterruptsMallocInChild(bool programmed, int getppid_id) {
  const pid_t child = fork();
  if (child == 0) {
    if (programmed) {
      pm_prog_t prog = MakeProgram({getppid_id}, PM_USER | PM_KERNEL);
      if (pm_set_program_mythread(&prog) != 0) _exit(2);
    }
    struct sigaction action = {};
    action.sa_handler = CallFromHandler;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    sigaction(SIGPROF, &action, nullptr);
    // As often as the kernel's tick allows, until enough signals landed (or 10 s of CPU time
    // passed: ITIMER_PROF ticks with CPU time, which a loaded machine hands out slowly, so a
    // wall-clock limit would fail a slow run rather than a broken one).
    itimerval every = {{0, 1000}, {0, 1000}};
    setitimer(ITIMER_PROF, &every, nullptr);
    for (long i = 0; g_handler_calls.load() < kHandlerCalls; ++i) {
      void *volatile p = malloc(64 + (i % 512));
      free(p);
      if (i % 1'000'000 == 0 && clock() > 10 * CLOCKS_PER_SEC) _exit(3);
    }
    _exit(0);
  }
  // A deadlocked child sleeps; a slow one makes progress. Two minutes tells them apart even on
  // a machine loaded many times over.
  for (int waited_ms = 0; waited_ms < 120'000; waited_ms += 10) {
    int status = 0;
    if (waitpid(child, &status, WNOHANG) == child) {
      return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    }
    usleep(10'000);
  }
  kill(child, SIGKILL);
  waitpid(child, nullptr, 0);
  return -2;  // deadlocked
}

TEST_F(SignalSafety, AHandlerThatInterruptsMallocDoesNotDeadlock) {
  EXPECT_EQ(HandlerInterruptsMallocInChild(false, getppid_), 0) << "-2: the child deadlocked";
  EXPECT_EQ(HandlerInterruptsMallocInChild(true, getppid_), 0) << "-2: the child deadlocked";
}

}  // namespace
