// SPDX-License-Identifier: MIT
// The first-party thread family counts exactly: N getppid calls, N counts,
// in many threads at once, read while counting and after stop.
#include <gtest/gtest.h>
#include <pthread.h>

#include <thread>
#include <vector>

#include "support/counting.h"
#include "support/counting_fixture.h"
#include "support/timebase.h"

using namespace pmapi_test;

namespace {

class MyThread : public GetppidTest {
 protected:
  void AfterInitialize() override { task_clock_ = EventId("task-clock"); }
  void TearDown() override { pm_delete_program_mythread(); }
  int task_clock_ = COUNT_NOTHING;
};

TEST_F(MyThread, CountsExactlyWhileCountingAndAfterStop) {
  pm_prog_t prog = MakeProgram({getppid_, task_clock_}, PM_USER | PM_KERNEL);
  ASSERT_EQ(pm_set_program_mythread(&prog), 0) << pm_strerror("set", 0);
  ASSERT_EQ(pm_start_mythread(), 0);
  CallGetppid(1000);
  pm_data_t data;
  ASSERT_EQ(pm_get_data_mythread(&data), 0);
  EXPECT_EQ(data.accu[0], 1000);
  EXPECT_GT(data.accu[1], 0) << "task-clock counts nanoseconds";
  CallGetppid(234);
  ASSERT_EQ(pm_stop_mythread(), 0);
  CallGetppid(50);  // not counted: stopped
  ASSERT_EQ(pm_get_data_mythread(&data), 0);
  EXPECT_EQ(data.accu[0], 1234);
  for (int counter = 2; counter < MAX_COUNTERS; ++counter) EXPECT_EQ(data.accu[counter], 0);
}

TEST_F(MyThread, CountBitStartsAtOnceAndGetProgramReturnsWhatWasSet) {
  pm_prog_t prog = MakeProgram({COUNT_NOTHING, getppid_}, PM_USER | PM_COUNT);
  ASSERT_EQ(pm_set_program_mythread(&prog), 0);
  CallGetppid(77);
  pm_data_t data;
  ASSERT_EQ(pm_get_data_mythread(&data), 0);
  EXPECT_EQ(data.accu[0], 0);
  EXPECT_EQ(data.accu[1], 77);
  pm_prog_t got;
  ASSERT_EQ(pm_get_program_mythread(&got), 0);
  EXPECT_EQ(got.events[0], COUNT_NOTHING);
  EXPECT_EQ(got.events[1], getppid_);
  EXPECT_TRUE(got.mode.b.user);
  EXPECT_FALSE(got.mode.b.kernel);
  EXPECT_TRUE(got.mode.b.count) << "counting is on";
  ASSERT_EQ(pm_stop_mythread(), 0);
  ASSERT_EQ(pm_get_program_mythread(&got), 0);
  EXPECT_FALSE(got.mode.b.count) << "counting is off";
}

TEST_F(MyThread, ResetWhileCountingStartsFromZero) {
  pm_prog_t prog = MakeProgram({getppid_}, PM_USER | PM_KERNEL | PM_COUNT);
  ASSERT_EQ(pm_set_program_mythread(&prog), 0);
  CallGetppid(500);
  ASSERT_EQ(pm_reset_data_mythread(), 0);
  CallGetppid(20);
  pm_data_t data;
  ASSERT_EQ(pm_get_data_mythread(&data), 0);
  EXPECT_EQ(data.accu[0], 20);
}

TEST_F(MyThread, TimedCallsReturnMonotonicStampsAndCountedTime) {
  pm_prog_t prog = MakeProgram({getppid_, task_clock_}, PM_USER | PM_KERNEL);
  ASSERT_EQ(pm_set_program_mythread(&prog), 0);
  timebasestruct_t start, stop, read;
  ASSERT_EQ(pm_tstart_mythread(&start), 0);
  CallGetppid(10);
  ASSERT_EQ(pm_tstop_mythread(&stop), 0);
  pm_data_t data;
  ASSERT_EQ(pm_get_tdata_mythread(&data, &read), 0);
  EXPECT_EQ(start.flag, RTC_POWER_PC);
  auto ticks = [](const timebasestruct_t &t) { return TimebaseNanos(t); };
  EXPECT_LE(ticks(start), ticks(stop));
  EXPECT_LE(ticks(stop), ticks(read));
  pm_accu_time_t times;
  ASSERT_EQ(pm_get_Tdata_mythread(&data, &times), 0);
  EXPECT_EQ(data.accu[0], 10);
  // task-clock counts the same nanoseconds the group was enabled and running.
  EXPECT_GT(ticks(times.accu_timebase), 0u);
  EXPECT_EQ(ticks(times.accu_timebase), ticks(times.accu_purr)) << "pinned: never multiplexed";
  // Enabled between the two stamps, give or take the calls' own cost.
  EXPECT_LE(ticks(times.accu_timebase), ticks(stop) - ticks(start) + 1000000u);
}

TEST_F(MyThread, EightThreadsCountTheirOwnCallsExactly) {
  constexpr int kThreads = 8;
  std::vector<std::thread> threads;
  std::vector<long long> while_counting(kThreads), after_stop(kThreads);
  std::vector<int> failures(kThreads);
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      const long calls = 1000 + 100 * t;
      pm_prog_t prog = MakeProgram({getppid_}, PM_USER | PM_KERNEL | PM_COUNT);
      int rc = pm_set_program_mythread(&prog);
      CallGetppid(calls);
      pm_data_t data = {};
      rc |= pm_get_data_mythread(&data);
      while_counting[t] = data.accu[0];
      rc |= pm_stop_mythread();
      CallGetppid(10);
      rc |= pm_get_data_mythread(&data);
      after_stop[t] = data.accu[0];
      rc |= pm_delete_program_mythread();
      failures[t] = rc;
    });
  }
  for (std::thread &thread : threads) thread.join();
  for (int t = 0; t < kThreads; ++t) {
    EXPECT_EQ(failures[t], 0) << "thread " << t;
    EXPECT_EQ(while_counting[t], 1000 + 100 * t) << "thread " << t;
    EXPECT_EQ(after_stop[t], 1000 + 100 * t) << "thread " << t;
  }
}

TEST_F(MyThread, SoftwareEventsFollowTheModeBits) {
  // A page fault on a user address is charged to user mode: user-only counts
  // it, kernel-only does not. Tracepoints fire whatever the mode (they are
  // neither user nor kernel execution), as docs/counting.md says.
  const int faults = EventId("page-faults");
  const long kPages = (64 << 20) / sysconf(_SC_PAGESIZE);
  auto count_faults = [&](int mode, long long *faults_seen, long long *calls_seen) {
    pm_prog_t prog = MakeProgram({faults, getppid_}, mode | PM_COUNT);
    ASSERT_EQ(pm_set_program_mythread(&prog), 0);
    // 64 MiB of fresh pages, huge pages off: one user-mode fault per page.
    ASSERT_TRUE(TouchFreshPages(kPages));
    CallGetppid(100);
    pm_data_t data;
    ASSERT_EQ(pm_get_data_mythread(&data), 0);
    ASSERT_EQ(pm_delete_program_mythread(), 0);
    *faults_seen = data.accu[0];
    *calls_seen = data.accu[1];
  };
  long long user_faults = 0, kernel_faults = 0, user_calls = 0, kernel_calls = 0;
  count_faults(PM_USER, &user_faults, &user_calls);
  count_faults(PM_KERNEL, &kernel_faults, &kernel_calls);
  EXPECT_GE(user_faults, kPages);
  EXPECT_LE(user_faults, kPages + FaultSlack(kPages)) << "one fault per page, and few others";
  EXPECT_LT(kernel_faults, kPages / 10);
  EXPECT_EQ(user_calls, 100);
  EXPECT_EQ(kernel_calls, 100);
}

// A read is no cancellation point: with a cancel pending, pm_get_data_mythread reads and
// returns (glibc's read(2) would act on the cancel inside the library, and the forced unwind
// would end the process at the C boundary). The cancel then takes effect where the caller
// tests for it.
struct PendingCancelRead {
  int getppid = COUNT_NOTHING;
  int rc = -1;
  long long count = -1;
};

void *ReadWithCancelPending(void *arg) {
  auto *read = static_cast<PendingCancelRead *>(arg);
  pm_prog_t prog = MakeProgram({read->getppid}, PM_USER | PM_KERNEL | PM_COUNT);
  if (pm_set_program_mythread(&prog) != 0) return nullptr;
  CallGetppid(321);
  pthread_cancel(pthread_self());
  pm_data_t data;
  read->rc = pm_get_data_mythread(&data);
  read->count = data.accu[0];
  // Deleting closes descriptors, and close(2) is a cancellation point.
  pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, nullptr);
  pm_delete_program_mythread();
  pthread_setcancelstate(PTHREAD_CANCEL_ENABLE, nullptr);
  pthread_testcancel();
  return nullptr;
}

TEST_F(MyThread, AReadWithACancelPendingReadsAndReturns) {
  PendingCancelRead read;
  read.getppid = getppid_;
  pthread_t thread;
  ASSERT_EQ(pthread_create(&thread, nullptr, ReadWithCancelPending, &read), 0);
  void *result = nullptr;
  ASSERT_EQ(pthread_join(thread, &result), 0);
  EXPECT_EQ(result, PTHREAD_CANCELED) << "the cancel took effect at pthread_testcancel";
  EXPECT_EQ(read.rc, 0) << pm_strerror("read", read.rc);
  EXPECT_EQ(read.count, 321);
}

}  // namespace
