// System-wide counting: one group per online CPU, the _cpu and _lcpu reads,
// and the process-tree variant.
#include <gtest/gtest.h>
#include <pthread.h>
#include <sched.h>
#include <unistd.h>

#include <thread>

#include "support/counting.h"
#include "support/timebase.h"

using namespace pmapi_test;

namespace {

class SystemWide : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(InitializeAll());
    getppid_ = EventId(kGetppid);
  }
  void TearDown() override { pm_delete_program(); }
  int getppid_ = COUNT_NOTHING;
};

void PinTo(int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  ASSERT_EQ(sched_setaffinity(0, sizeof set, &set), 0);
}

TEST_F(SystemWide, PinnedCallsShowOnTheirCpuAndCpuReadsSumToTheTotal) {
  ASSERT_EQ(geteuid(), 0u) << "system-wide counting needs root here";
  pm_prog_t prog = MakeProgram({getppid_, EventId("task-clock")}, PM_USER | PM_KERNEL | PM_COUNT);
  ASSERT_EQ(pm_set_program(&prog), 0) << pm_strerror("pm_set_program", Pmapi_Permission);
  const long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  const int k = static_cast<int>(cpus - 1);  // the last CPU
  std::thread([&] {
    PinTo(k);
    CallGetppid(5000);
  }).join();
  ASSERT_EQ(pm_stop(), 0);

  pm_data_t on_k;
  ASSERT_EQ(pm_get_data_lcpu(k, &on_k), 0);
  EXPECT_GE(on_k.accu[0], 5000);

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
  EXPECT_GE(total.accu[0], 5000);
}

TEST_F(SystemWide, CpuNumbersOutOfRangeFailCleanly) {
  ASSERT_EQ(geteuid(), 0u);
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
  ASSERT_EQ(geteuid(), 0u);
  pm_prog_t prog = MakeProgram({getppid_}, PM_USER | PM_KERNEL);
  ASSERT_EQ(pm_set_program(&prog), 0);
  timebasestruct_t start, stop;
  ASSERT_EQ(pm_tstart(&start), 0);
  CallGetppid(100);
  ASSERT_EQ(pm_tstop(&stop), 0);
  EXPECT_EQ(pm_stop(), Pmapi_NotCounting);
  pm_accu_time_t times;
  pm_data_t data;
  ASSERT_EQ(pm_get_Tdata(&data, &times), 0);
  EXPECT_GE(data.accu[0], 100);
  EXPECT_GT(TimebaseNanos(times.accu_timebase), 0u);
  ASSERT_EQ(pm_reset_data(), 0);
  ASSERT_EQ(pm_get_data(&data), 0);
  EXPECT_EQ(data.accu[0], 0);
  pm_prog_t got;
  ASSERT_EQ(pm_get_program(&got), 0);
  EXPECT_EQ(got.events[0], getppid_);
}

TEST_F(SystemWide, ProcessTreeCountsChildrenCreatedAfterwardsWithoutPrivilege) {
  // Exact: nothing else in this process tree calls getppid.
  int status = InChild([&] {
    if (!DropToNobody()) _exit(10);
    pm_prog_t prog = MakeProgram({EventId("page-faults")}, PM_USER | PM_PROCTREE | PM_COUNT);
    if (pm_set_program(&prog) != 0) {
      pm_error("proctree as nobody", Pmapi_Permission);
      _exit(11);
    }
    _exit(0);
  });
  EXPECT_EQ(status, 0) << "an unprivileged process may count its own tree";

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
  ASSERT_EQ(geteuid(), 0u);
  pm_prog_t prog = MakeProgram({getppid_}, PM_USER | PM_KERNEL | PM_COUNT);
  ASSERT_EQ(pm_set_program(&prog), 0);
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 200; ++i) {
        pm_data_t data;
        if (pm_get_data(&data) != 0) ++failures;
        if (pm_get_data_cpu(0, &data) != 0) ++failures;
      }
    });
  }
  for (auto &thread : threads) thread.join();
  EXPECT_EQ(failures.load(), 0);
}

}  // namespace
