// SPDX-License-Identifier: MIT
// A second stop of a stopped context changes nothing: the time counted since set stays what
// the first stop left. The system-wide context keeps its own wall-clock account of that time
// (core/enabled_clock.h), against which it tells a CPU the kernel switched off; a second stop
// that added the stopped span again would make every CPU look switched off.
#include <gtest/gtest.h>
#include <unistd.h>

#include <vector>

#include "core/enabled_clock.h"
#include "support/counting.h"
#include "support/timebase.h"

using namespace pmapi_test;

namespace {

constexpr uint64_t kMs = 1000000;

TEST(EnabledClockStops, ASecondStopAddsNothing) {
  pmapi::EnabledClock clock;
  clock.Started(100 * kMs);
  clock.Stopped(130 * kMs);
  EXPECT_EQ(clock.At(130 * kMs), 30 * kMs);
  clock.Stopped(500 * kMs);  // stopped already: the 370 ms since are not counting time
  EXPECT_EQ(clock.At(900 * kMs), 30 * kMs);
  clock.Started(1000 * kMs);
  clock.Started(1005 * kMs);  // started already: the clock keeps its first start
  EXPECT_EQ(clock.At(1010 * kMs), 40 * kMs);
  clock.Stopped(1010 * kMs);
  clock.Stopped(2000 * kMs);
  EXPECT_EQ(clock.At(3000 * kMs), 40 * kMs);
}

TEST(EnabledClockStops, AResetWhileStoppedStartsFromZero) {
  pmapi::EnabledClock clock;
  clock.Started(0);
  clock.Stopped(10 * kMs);
  clock.Reset(20 * kMs);
  clock.Stopped(30 * kMs);
  EXPECT_EQ(clock.At(40 * kMs), 0u);
}

// Through the C interface: after start, 20 ms, stop, 60 ms, a second stop, every CPU reads
// cleanly (no Pmapi_CpuNotCounted) and its accumulated time did not move.
TEST(StopTwice, SystemWideCpusStillReadAndTheirTimeStays) {
  if (geteuid() != 0) GTEST_SKIP() << "system-wide counting needs root or CAP_PERFMON";
  if (!InitializeAll()) return;
  pm_prog_t prog = MakeProgram({EventId("task-clock")}, PM_USER | PM_KERNEL | PM_COUNT);
  ASSERT_EQ(pm_set_program(&prog), 0) << pm_strerror("pm_set_program", Pmapi_Permission);
  usleep(20000);
  ASSERT_EQ(pm_stop(), 0);
  const int cpus = static_cast<int>(sysconf(_SC_NPROCESSORS_ONLN));
  std::vector<uint64_t> first(static_cast<size_t>(cpus));
  pm_data_t data;
  pm_accu_time_t times;
  for (int cpu = 0; cpu < cpus; ++cpu) {
    ASSERT_EQ(pm_get_Tdata_cpu(cpu, &data, &times), 0) << "cpu " << cpu;
    first[static_cast<size_t>(cpu)] = TimebaseNanos(times.accu_timebase);
  }
  usleep(60000);
  EXPECT_EQ(pm_stop(), Pmapi_NotCounting);
  for (int cpu = 0; cpu < cpus; ++cpu) {
    EXPECT_EQ(pm_get_Tdata_cpu(cpu, &data, &times), 0)
        << "cpu " << cpu << ": " << pm_strerror("pm_get_Tdata_cpu", Pmapi_CpuNotCounted);
    EXPECT_EQ(TimebaseNanos(times.accu_timebase), first[static_cast<size_t>(cpu)]) << "cpu " << cpu;
  }
  // And the context still starts and counts afterwards.
  ASSERT_EQ(pm_start(), 0);
  usleep(5000);
  ASSERT_EQ(pm_stop(), 0);
  for (int cpu = 0; cpu < cpus; ++cpu) {
    EXPECT_EQ(pm_get_Tdata_cpu(cpu, &data, &times), 0) << "cpu " << cpu;
    EXPECT_GT(TimebaseNanos(times.accu_timebase), first[static_cast<size_t>(cpu)]);
  }
  EXPECT_EQ(pm_delete_program(), 0);
}

// The thread's own context: the kernel's enabled time is what it reports; a second stop
// neither moves it nor restarts counting.
TEST(StopTwice, MyThreadTimeBaseStays) {
  if (!InitializeAll()) return;
  pm_prog_t prog = MakeProgram({EventId(kGetppid)}, PM_USER | PM_KERNEL | PM_COUNT);
  ASSERT_EQ(pm_set_program_mythread(&prog), 0);
  CallGetppid(10);
  usleep(10000);
  ASSERT_EQ(pm_stop_mythread(), 0);
  pm_data_t data;
  pm_accu_time_t before, after;
  ASSERT_EQ(pm_get_Tdata_mythread(&data, &before), 0);
  EXPECT_EQ(data.accu[0], 10);
  usleep(30000);
  EXPECT_EQ(pm_stop_mythread(), Pmapi_NotCounting);
  CallGetppid(7);  // not counted: stopped
  ASSERT_EQ(pm_get_Tdata_mythread(&data, &after), 0);
  EXPECT_EQ(data.accu[0], 10);
  EXPECT_EQ(TimebaseNanos(after.accu_timebase), TimebaseNanos(before.accu_timebase));
  EXPECT_EQ(pm_delete_program_mythread(), 0);
}

}  // namespace
