// SPDX-License-Identifier: MIT
// System-wide counting: one group per online CPU, the _cpu and _lcpu reads,
// and the process-tree variant.
#include <gtest/gtest.h>
#include <pthread.h>
#include <sched.h>
#include <unistd.h>

#include <atomic>
#include <thread>
#include <vector>

#include "support/counting.h"
#include "support/counting_fixture.h"
#include "support/cpu_numbers.h"
#include "support/timebase.h"

using namespace pmapi_test;

namespace {

class SystemWide : public GetppidTest {
 protected:
  void AfterInitialize() override { rare_ = EventId(kRareSyscall); }
  void TearDown() override { pm_delete_program(); }
  // System-wide counting needs root (or CAP_PERFMON) here: say so and skip, not fail.
  static bool Privileged() { return geteuid() == 0; }
  // Counted exactly machine-wide: nobody else calls it (support/counting.h).
  int rare_ = COUNT_NOTHING;
};

#define SKIP_UNLESS_ROOT() \
  if (!Privileged()) GTEST_SKIP() << "system-wide counting needs root or CAP_PERFMON"

void PinTo(int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  ASSERT_EQ(sched_setaffinity(0, sizeof set, &set), 0);
}

TEST_F(SystemWide, PinnedCallsShowOnTheirCpuAndCpuReadsSumToTheTotal) {
  SKIP_UNLESS_ROOT();
  pm_prog_t prog = MakeProgram({rare_, EventId("task-clock")}, PM_USER | PM_KERNEL | PM_COUNT);
  ASSERT_EQ(pm_set_program(&prog), 0) << pm_strerror("pm_set_program", Pmapi_Permission);
  const long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  const int k = static_cast<int>(cpus - 1);  // the last CPU
  std::thread([&] {
    PinTo(k);
    CallRareSyscall(5000);
  }).join();
  ASSERT_EQ(pm_stop(), 0);

  pm_data_t on_k;
  ASSERT_EQ(pm_get_data_lcpu(k, &on_k), 0);
  EXPECT_EQ(on_k.accu[0], 5000) << "every call on the CPU it was pinned to";
  pm_data_t dense_k;
  ASSERT_EQ(pm_get_data_cpu(DenseIndexOf(k), &dense_k), 0);
  EXPECT_EQ(dense_k.accu[0], 5000) << "the same CPU by its dense index (pmapi_topology.h)";

  pm_data_t total;
  ASSERT_EQ(pm_get_data(&total), 0);
  long long sum[2] = {0, 0};
  for (int i = 0; i < cpus; ++i) {
    pm_data_t one;
    ASSERT_EQ(pm_get_data_cpu(i, &one), 0) << "cpu " << i;
    sum[0] += one.accu[0];
    sum[1] += one.accu[1];
  }
  EXPECT_EQ(sum[0], total.accu[0]) << "stopped: the per-CPU reads add up exactly";
  EXPECT_EQ(sum[1], total.accu[1]);
  EXPECT_EQ(total.accu[0], 5000);
  EXPECT_GT(total.accu[1], 0) << "task-clock counted on every CPU";
}

TEST_F(SystemWide, CpuNumbersOutOfRangeFailCleanly) {
  SKIP_UNLESS_ROOT();
  pm_prog_t prog = MakeProgram({getppid_}, PM_USER | PM_KERNEL);
  ASSERT_EQ(pm_set_program(&prog), 0);
  pm_data_t data;
  const int cpus = static_cast<int>(sysconf(_SC_NPROCESSORS_ONLN));
  EXPECT_EQ(pm_get_data_cpu(-1, &data), Pmapi_InvalidCpu);
  EXPECT_EQ(pm_get_data_cpu(cpus, &data), Pmapi_InvalidCpu);
  EXPECT_EQ(pm_get_data_lcpu(-1, &data), Pmapi_InvalidCpu);
  EXPECT_EQ(pm_get_data_lcpu(100000, &data), Pmapi_InvalidCpu);
  EXPECT_NE(std::string(pm_strerror("", Pmapi_InvalidCpu)).find("100000"), std::string::npos);
  EXPECT_EQ(pm_get_data_cpu(0, nullptr), Pmapi_InvalidArg);
}

TEST_F(SystemWide, ResetAndTimedReads) {
  SKIP_UNLESS_ROOT();
  pm_prog_t prog = MakeProgram({rare_}, PM_USER | PM_KERNEL);
  ASSERT_EQ(pm_set_program(&prog), 0);
  CallRareSyscall(9);  // not counted: set without PM_COUNT
  timebasestruct_t start, stop;
  ASSERT_EQ(pm_tstart(&start), 0);
  CallRareSyscall(100);
  ASSERT_EQ(pm_tstop(&stop), 0);
  EXPECT_EQ(pm_stop(), Pmapi_NotCounting);
  pm_accu_time_t times;
  pm_data_t data;
  ASSERT_EQ(pm_get_Tdata(&data, &times), 0);
  EXPECT_EQ(data.accu[0], 100);
  EXPECT_LE(TimebaseNanos(start), TimebaseNanos(stop));
  EXPECT_GT(TimebaseNanos(times.accu_timebase), 0u);
  ASSERT_EQ(pm_reset_data(), 0);
  ASSERT_EQ(pm_get_data(&data), 0);
  EXPECT_EQ(data.accu[0], 0);
  pm_prog_t got;
  ASSERT_EQ(pm_get_program(&got), 0);
  EXPECT_EQ(got.events[0], rare_);
}

TEST_F(SystemWide, ProcessTreeCountsChildrenCreatedAfterwardsWithoutPrivilege) {
  // Unprivileged: `nobody` counts its own tree in user mode (no tracepoint: tracefs is root's),
  // so page faults of a grandchild that writes 2,000 fresh pages: at least 2,000, and only the
  // few copy-on-write and start-up faults of fork and exit besides.
  const long kPages = 2000;
  SKIP_UNLESS_ROOT();  // to drop to nobody, and for the getppid tracepoint below
  int status = InChild([&] {
    if (!DropToNobody()) _exit(10);
    pm_prog_t prog = MakeProgram({EventId("page-faults")}, PM_USER | PM_PROCTREE | PM_COUNT);
    if (pm_set_program(&prog) != 0) {
      pm_error("proctree as nobody", Pmapi_Permission);
      _exit(11);
    }
    pm_data_t before;
    if (pm_get_data(&before) != 0) _exit(12);
    if (InChild([&] { _exit(TouchFreshPages(kPages) ? 0 : 20); }) != 0) _exit(13);
    pm_data_t after;
    if (pm_get_data(&after) != 0) _exit(14);
    const long long faults = after.accu[0] - before.accu[0];
    if (faults < kPages) _exit(15);
    if (faults > kPages + 200 + FaultSlack(kPages)) _exit(16);
    _exit(0);
  });
  EXPECT_EQ(status, 0) << "an unprivileged process counts its own tree (15: fewer faults than "
                          "pages written, 16: far more)";

  pm_prog_t prog = MakeProgram({getppid_}, PM_USER | PM_KERNEL | PM_PROCTREE | PM_COUNT);
  ASSERT_EQ(pm_set_program(&prog), 0);
  ASSERT_EQ(InChild([] { CallGetppid(400); }), 0);
  std::thread([] { CallGetppid(60); }).join();
  pm_data_t data;
  ASSERT_EQ(pm_get_data(&data), 0);
  EXPECT_EQ(data.accu[0], 460) << "the child process and the new thread, exactly";
  EXPECT_EQ(pm_get_data_cpu(0, &data), Pmapi_NotSystemWide);
}

TEST_F(SystemWide, CallsFromManyThreadsAreSerialized) {
  SKIP_UNLESS_ROOT();
  pm_prog_t prog = MakeProgram({rare_}, PM_USER | PM_KERNEL | PM_COUNT);
  ASSERT_EQ(pm_set_program(&prog), 0);
  CallRareSyscall(300);
  ASSERT_EQ(pm_stop(), 0);
  // Stopped: every read from every thread must see exactly the 300 calls, and the per-CPU
  // reads of one thread must add up to them.
  std::vector<std::thread> threads;
  std::atomic<int> failures{0}, wrong{0};
  const int cpus = static_cast<int>(sysconf(_SC_NPROCESSORS_ONLN));
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 200; ++i) {
        pm_data_t data;
        if (pm_get_data(&data) != 0) ++failures;
        if (data.accu[0] != 300) ++wrong;
        long long sum = 0;
        for (int cpu = 0; cpu < cpus; ++cpu) {
          if (pm_get_data_cpu(cpu, &data) != 0) ++failures;
          sum += data.accu[0];
        }
        if (sum != 300) ++wrong;
      }
    });
  }
  for (auto &thread : threads) thread.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(wrong.load(), 0) << "reads that did not see exactly the 300 calls";
}

}  // namespace
