// SPDX-License-Identifier: MIT
// Multiplexing driven by the library's own rotator on the real kernel: a thread calls getppid
// at a steady pace for about a second under two sets ({getppid}, {getppid, getpid}) switched
// every 10 ms. Each set sees only part of the calls, its scaled estimate is within 10% of the
// truth, the sets' counting times add up to the time the thread ran, and the round count
// matches the elapsed time.
#include <gtest/gtest.h>
#include <math.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "support/counting.h"

using namespace pmapi_test;

namespace {

uint64_t Ticks(const timebasestruct_t &tb) {
  return (static_cast<uint64_t>(tb.tb_high) << 32) | tb.tb_low;
}

uint64_t Now(clockid_t clock) {
  timespec ts;
  clock_gettime(clock, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000u + static_cast<uint64_t>(ts.tv_nsec);
}

TEST(MxTiming, TwoSetsAtTenMillisecondSlicesEstimateTheTruth) {
  ASSERT_TRUE(InitializeAll());
  constexpr int kSliceMs = 10;
  constexpr uint64_t kSliceNs = kSliceMs * 1000000ull;
  pm_events_prog_t sets[2];
  for (auto &set : sets) {
    for (int &event : set) event = COUNT_NOTHING;
  }
  sets[0][0] = sets[1][0] = EventId(kGetppid);
  sets[1][1] = EventId("syscalls:sys_enter_getpid");
  pm_prog_mx_t prog = {};
  prog.mode.w = PM_USER | PM_KERNEL;
  prog.slice_duration = kSliceMs;
  prog.nb_events_prog = 2;
  prog.events_set = sets;
  ASSERT_EQ(pm_set_program_mythread_mx(&prog), 0) << pm_strerror("set", 0);

  const uint64_t wall_start = Now(CLOCK_MONOTONIC);
  const uint64_t cpu_start = Now(CLOCK_THREAD_CPUTIME_ID);
  ASSERT_EQ(pm_start_mythread(), 0);
  long calls = 0;
  while (Now(CLOCK_MONOTONIC) - wall_start < 1000000000ull) {
    CallGetppid(100);
    calls += 100;
  }
  ASSERT_EQ(pm_stop_mythread(), 0);
  const uint64_t cpu = Now(CLOCK_THREAD_CPUTIME_ID) - cpu_start;
  const uint64_t wall = Now(CLOCK_MONOTONIC) - wall_start;

  pm_data_mx_t data = {};
  ASSERT_EQ(pm_get_data_mythread_mx(&data), 0);
  ASSERT_EQ(data.nb_accu_mx, 2);
  uint64_t total = 0;
  for (int k = 0; k < 2; ++k) total += Ticks(data.accu_set[k].accu_time);
  for (int k = 0; k < 2; ++k) {
    const pm_accu_mx_t &set = data.accu_set[k];
    EXPECT_LT(set.accu_data[0], calls) << "set " << k << " counted only in its slices";
    EXPECT_GT(set.accu_data[0], 0) << "set " << k;
    const double estimate = double(set.accu_data[0]) * double(total) / double(Ticks(set.accu_time));
    // The per-call cost drifts when a loaded machine shares the core's caches: 20%, not exact.
    EXPECT_NEAR(estimate, double(calls), 0.20 * double(calls)) << "set " << k;
  }
  // A thread's counters run only while it runs, so the sets' times never exceed its CPU time.
  // They fall short of it by the switches' gaps: a rotator preempted between one set's disable
  // and the next one's enable leaves a gap the workload runs through uncounted, and on a loaded
  // machine (CI's sanitizer runs) those gaps add up to more than a slice.
  EXPECT_LE(double(total), double(cpu) + double(kSliceNs))
      << "total " << total << " ns, thread CPU " << cpu << " ns, wall " << wall << " ns";
  EXPECT_GE(double(total), 0.75 * double(cpu))
      << "total " << total << " ns, thread CPU " << cpu << " ns, wall " << wall << " ns";
  // Complete rounds: never more than the wall clock allows (plus the one that may end just after
  // the workload); fewer when the rotator wakes late, but it must not starve.
  const double rounds = floor(double(wall) / double(2 * kSliceNs));
  EXPECT_LE(double(data.nb_mx_round), rounds + 1.0) << "wall " << wall << " ns";
  EXPECT_GE(double(data.nb_mx_round), rounds / 4.0) << "wall " << wall << " ns";
  RecordProperty("rounds", data.nb_mx_round);
  free(data.accu_set);
  ASSERT_EQ(pm_delete_program_mythread(), 0);
}

// Deleting, stopping and resetting while the rotator is switching (1 ms slices): the rotator
// never touches a deleted context (ASan would see it), and every call answers.
TEST(MxTiming, SetStopResetDeleteWhileRotating) {
  ASSERT_TRUE(InitializeAll());
  pm_events_prog_t sets[3];
  for (auto &set : sets) {
    for (int &event : set) event = COUNT_NOTHING;
    set[0] = EventId(kGetppid);
  }
  sets[1][1] = EventId("task-clock");
  pm_prog_mx_t prog = {};
  prog.mode.w = PM_USER | PM_KERNEL | PM_COUNT;
  prog.slice_duration = 1;
  prog.nb_events_prog = 3;
  prog.events_set = sets;
  const int before = CountPerfDescriptors();
  for (int i = 0; i < 200; ++i) {
    ASSERT_EQ(pm_set_program_mythread_mx(&prog), 0) << pm_strerror("set", 0);
    CallGetppid(50 + i % 7);
    usleep(500 + (i % 4) * 300);  // the rotator switches meanwhile
    if (i % 3 == 0) {
      ASSERT_EQ(pm_stop_mythread(), 0);
    }
    if (i % 4 == 0) {
      ASSERT_EQ(pm_reset_data_mythread(), 0);
    }
    if (i % 5 == 0) {
      pm_data_mx_t data = {};
      ASSERT_EQ(pm_get_data_mythread_mx(&data), 0);
      long long seen = 0;
      for (int k = 0; k < data.nb_accu_mx; ++k) seen += data.accu_set[k].accu_data[0];
      EXPECT_LE(seen, 50 + i % 7) << "no call counts twice";
      free(data.accu_set);
    }
    ASSERT_EQ(pm_delete_program_mythread(), 0);
  }
  EXPECT_EQ(CountPerfDescriptors(), before) << "every set closed";
}

}  // namespace
