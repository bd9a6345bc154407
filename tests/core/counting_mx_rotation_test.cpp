// SPDX-License-Identifier: MIT
// Multiplexing, exactly: a perf double with a fake clock counts each event at a fixed rate
// while its group is enabled, and the test switches sets by hand, so that set k counts for
// exactly its slices. Counts, accu_time, nb_mx_round and the scaled estimates are checked to
// the unit; so are bad programs (nothing left open), the memory rules, and stop, reset and
// delete in the middle of a rotation.
#include <gtest/gtest.h>
#include <linux/perf_event.h>
#include <stdlib.h>

#include <map>
#include <mutex>
#include <vector>

#include "core/multiplexer.h"
#include "core/registry.h"
#include "support/counting.h"
#include "support/fake_kernel.h"
#include "support/hand_driven_mx.h"

using namespace pmapi_test;

namespace {

// Perf events on a fake clock. Event i of a group counts (i + 1) per microsecond while its
// leader is enabled; every group is always scheduled (running == enabled).
class FakePerf : public FakeKernel {
 public:
  uint64_t now = 0;      // ns
  int fail_open_at = 0;  // the n-th open (from 1) fails with EMFILE; 0: none

  int PerfEventOpen(const perf_event_attr &, pid_t, int, int group_fd) override {
    std::lock_guard<std::mutex> lock(mutex_);
    if (++opens_ == fail_open_at) return -EMFILE;
    const int fd = next_fd_++;
    if (group_fd < 0) {
      leaders_[fd] = Leader();
    } else {
      leaders_[group_fd].members.push_back(fd);
      leader_of_[fd] = group_fd;
    }
    ++open_;
    return fd;
  }

  int Ioctl(int fd, unsigned long request, unsigned long) override {
    std::lock_guard<std::mutex> lock(mutex_);
    Leader &leader = leaders_.at(fd);
    Settle(&leader);
    if (request == PERF_EVENT_IOC_ENABLE) leader.enabled = true;
    if (request == PERF_EVENT_IOC_DISABLE) leader.enabled = false;
    int on = 0;
    for (auto &entry : leaders_) on += entry.second.enabled;
    if (on > most_enabled_) most_enabled_ = on;
    return 0;
  }

  ssize_t Read(int fd, void *buf, size_t size) override {
    std::lock_guard<std::mutex> lock(mutex_);
    Leader &leader = leaders_.at(fd);
    Settle(&leader);
    const size_t n = 1 + leader.members.size();
    uint64_t out[3 + 16] = {n, leader.enabled_ns, leader.enabled_ns};
    for (size_t i = 0; i < n; ++i) out[3 + i] = leader.enabled_ns / 1000 * (i + 1);
    const size_t bytes = sizeof(uint64_t) * (3 + n);
    if (size < bytes) return -EINVAL;
    memcpy(buf, out, bytes);
    return static_cast<ssize_t>(bytes);
  }

  int Close(int fd) override {
    std::lock_guard<std::mutex> lock(mutex_);
    leaders_.erase(fd);
    --open_;
    return 0;
  }

  int open() const { return open_; }
  int most_enabled() const { return most_enabled_; }
  int enabled_now() {
    std::lock_guard<std::mutex> lock(mutex_);
    int on = 0;
    for (auto &entry : leaders_) on += entry.second.enabled;
    return on;
  }

 private:
  struct Leader {
    bool enabled = false;
    uint64_t since = 0;  // fake time of the last settle
    uint64_t enabled_ns = 0;
    std::vector<int> members;
  };
  void Settle(Leader *leader) {
    if (leader->enabled) leader->enabled_ns += now - leader->since;
    leader->since = now;
  }

  std::mutex mutex_;
  int next_fd_ = 100000;
  int opens_ = 0;
  int open_ = 0;
  int most_enabled_ = 0;
  std::map<int, Leader> leaders_;
  std::map<int, int> leader_of_;
};

class Rotation : public HandDrivenMx {
 protected:
  void AfterInitialize() override {
    a_ = EventId("cpu-migrations");  // software events only: no tracepoint anchor is opened
    b_ = EventId("task-clock");
    c_ = EventId("page-faults");
    pmapi::SetKernelForTesting(&perf_);
  }
  // Three sets: {a}, {a, b}, {a, b, c}.
  pm_prog_mx_t ThreeSets(int mode, int slice_ms = 10) {
    ClearSets(sets_, 3);
    sets_[0][0] = a_;
    sets_[1][0] = a_, sets_[1][1] = b_;
    sets_[2][0] = a_, sets_[2][1] = b_, sets_[2][2] = c_;
    return MxProgram(sets_, 3, mode, slice_ms);
  }

  FakePerf perf_;
  int a_ = 0, b_ = 0, c_ = 0;
  pm_events_prog_t sets_[3] = {{COUNT_NOTHING, COUNT_NOTHING, COUNT_NOTHING, COUNT_NOTHING,
                                COUNT_NOTHING, COUNT_NOTHING, COUNT_NOTHING, COUNT_NOTHING},
                               {COUNT_NOTHING, COUNT_NOTHING, COUNT_NOTHING, COUNT_NOTHING,
                                COUNT_NOTHING, COUNT_NOTHING, COUNT_NOTHING, COUNT_NOTHING},
                               {COUNT_NOTHING, COUNT_NOTHING, COUNT_NOTHING, COUNT_NOTHING,
                                COUNT_NOTHING, COUNT_NOTHING, COUNT_NOTHING, COUNT_NOTHING}};
};

TEST_F(Rotation, EachSetCountsExactlyItsSlices) {
  pm_prog_mx_t prog = ThreeSets(PM_USER | PM_KERNEL);
  ASSERT_EQ(pm_set_program_mythread_mx(&prog), 0) << pm_strerror("set", 0);
  EXPECT_EQ(perf_.open(), 1 + 2 + 3) << "one group per set";
  EXPECT_EQ(perf_.enabled_now(), 0) << "count bit off: nothing counts";
  ASSERT_EQ(pm_start_mythread(), 0);
  // Slices: set 0 10 ms, set 1 10 ms, set 2 10 ms, set 0 10 ms, then 5 ms of set 1.
  for (int slice = 0; slice < 4; ++slice) {
    perf_.now += 10 * kMs;
    ASSERT_TRUE(Mx()->Switch().ok());
  }
  perf_.now += 5 * kMs;
  EXPECT_EQ(perf_.most_enabled(), 1) << "exactly one set counts at a time";

  pm_data_mx_t data = {};
  ASSERT_EQ(pm_get_data_mythread_mx(&data), 0);
  ASSERT_NE(data.accu_set, nullptr);
  EXPECT_EQ(data.nb_accu_mx, 3);
  EXPECT_EQ(data.nb_mx_round, 1) << "set 2's slice ended once";
  const uint64_t expected_ns[3] = {20 * kMs, 15 * kMs, 10 * kMs};
  uint64_t total = 0;
  for (int k = 0; k < 3; ++k) {
    const pm_accu_mx_t &set = data.accu_set[k];
    EXPECT_EQ(Ticks(set.accu_time), expected_ns[k]) << "set " << k;
    total += Ticks(set.accu_time);
    const long long us = static_cast<long long>(expected_ns[k] / 1000);
    for (int e = 0; e <= k; ++e) EXPECT_EQ(set.accu_data[e], us * (e + 1)) << k << "/" << e;
    for (int e = k + 1; e < MAX_COUNTERS; ++e) EXPECT_EQ(set.accu_data[e], 0);
  }
  // The estimate of event a over the whole 45 ms, from each set, is exact: 45000.
  for (int k = 0; k < 3; ++k) {
    const double estimate = double(data.accu_set[k].accu_data[0]) * double(total) /
                            double(Ticks(data.accu_set[k].accu_time));
    EXPECT_DOUBLE_EQ(estimate, 45000.0) << "set " << k;
  }
  free(data.accu_set);
}

TEST_F(Rotation, StopResetAndDeleteMidRotation) {
  pm_prog_mx_t prog = ThreeSets(PM_USER | PM_COUNT);
  ASSERT_EQ(pm_set_program_mythread_mx(&prog), 0);
  EXPECT_EQ(perf_.enabled_now(), 1) << "the count bit starts set 0 at once";
  perf_.now += 10 * kMs;
  ASSERT_TRUE(Mx()->Switch().ok());  // set 1 now
  perf_.now += 3 * kMs;
  ASSERT_EQ(pm_stop_mythread(), 0);
  EXPECT_EQ(perf_.enabled_now(), 0) << "stop stops the current set at once";
  perf_.now += 50 * kMs;
  ASSERT_TRUE(Mx()->Switch().ok()) << "a switch while stopped does nothing";
  EXPECT_EQ(perf_.enabled_now(), 0);
  pm_data_mx_t data = {};
  ASSERT_EQ(pm_get_data_mythread_mx(&data), 0);
  EXPECT_EQ(Ticks(data.accu_set[0].accu_time), 10 * kMs);
  EXPECT_EQ(Ticks(data.accu_set[1].accu_time), 3 * kMs);
  EXPECT_EQ(Ticks(data.accu_set[2].accu_time), 0u);
  EXPECT_EQ(data.nb_mx_round, 0);
  free(data.accu_set);

  ASSERT_EQ(pm_start_mythread(), 0);  // resumes set 1, where it stopped
  perf_.now += 7 * kMs;
  ASSERT_TRUE(Mx()->Switch().ok());  // set 2
  perf_.now += 10 * kMs;
  ASSERT_TRUE(Mx()->Switch().ok());  // set 0: one round
  perf_.now += 1 * kMs;
  ASSERT_EQ(pm_get_data_mythread_mx(&data), 0);
  EXPECT_EQ(data.nb_mx_round, 1);
  EXPECT_EQ(Ticks(data.accu_set[1].accu_time), 10 * kMs);
  free(data.accu_set);

  ASSERT_EQ(pm_reset_data_mythread(), 0);
  perf_.now += 2 * kMs;
  ASSERT_EQ(pm_get_data_mythread_mx(&data), 0);
  EXPECT_EQ(data.nb_mx_round, 0) << "reset restarts the round count";
  EXPECT_EQ(Ticks(data.accu_set[0].accu_time), 2 * kMs) << "set 0 still counting";
  EXPECT_EQ(data.accu_set[0].accu_data[0], 2000);
  EXPECT_EQ(Ticks(data.accu_set[1].accu_time), 0u);
  EXPECT_EQ(data.accu_set[2].accu_data[2], 0);
  free(data.accu_set);

  ASSERT_EQ(pm_delete_program_mythread(), 0);
  EXPECT_EQ(perf_.open(), 0) << "delete closes every set";
  EXPECT_EQ(pm_get_data_mythread_mx(&data), Pmapi_NoSetProg);
}

TEST_F(Rotation, GetProgramHandsBackWhatWasSetInMemoryTheCallerFrees) {
  pm_prog_mx_t prog = ThreeSets(PM_USER, 0);
  ASSERT_EQ(pm_set_program_mythread_mx(&prog), 0);
  pm_prog_mx_t got = {};
  ASSERT_EQ(pm_get_program_mythread_mx(&got), 0);
  EXPECT_EQ(got.nb_events_prog, 3);
  EXPECT_EQ(got.slice_duration, pmapi::kDefaultSliceMs) << "0 asks for the default slice";
  EXPECT_TRUE(got.mode.b.user);
  EXPECT_FALSE(got.mode.b.count);
  ASSERT_NE(got.events_set, nullptr);
  for (int k = 0; k < 3; ++k) {
    for (int e = 0; e < MAX_COUNTERS; ++e) EXPECT_EQ(got.events_set[k][e], sets_[k][e]);
  }
  free(got.events_set);
  pm_prog_mm_t mm = {};
  ASSERT_EQ(pm_get_program_mythread_mm(&mm), 0) << "an _mx program is an _mm one with one mode";
  EXPECT_EQ(mm.nb_set_prog, 3);
  EXPECT_EQ(mm.prog_set[2].events[2], c_);
  EXPECT_TRUE(mm.prog_set[1].mode.b.user);
  free(mm.prog_set);
  pm_data_t plain;
  EXPECT_EQ(pm_get_data_mythread(&plain), Pmapi_InvalidArg) << pm_strerror("plain read", 0);
}

TEST_F(Rotation, MultiModeSetsTakeProctreeAndCountFromTheFirst) {
  pm_prog_t sets[2] = {MakeProgram({a_}, PM_USER | PM_COUNT), MakeProgram({a_}, PM_KERNEL)};
  pm_prog_mm_t prog = {5, 2, sets};
  ASSERT_EQ(pm_set_program_mythread_mm(&prog), 0) << pm_strerror("set", 0);
  EXPECT_EQ(perf_.enabled_now(), 1) << "the first set's count bit starts counting";
  pm_prog_mm_t got = {};
  ASSERT_EQ(pm_get_program_mythread_mm(&got), 0);
  EXPECT_EQ(got.slice_duration, 5);
  EXPECT_TRUE(got.prog_set[0].mode.b.user);
  EXPECT_FALSE(got.prog_set[0].mode.b.kernel);
  EXPECT_TRUE(got.prog_set[1].mode.b.kernel);
  EXPECT_FALSE(got.prog_set[1].mode.b.user);
  EXPECT_TRUE(got.prog_set[1].mode.b.count) << "count is the whole program's";
  free(got.prog_set);
  pm_prog_mx_t mx = {};
  EXPECT_EQ(pm_get_program_mythread_mx(&mx), Pmapi_InvalidArg) << "modes differ: use _mm";
  EXPECT_EQ(mx.events_set, nullptr);
}

TEST_F(Rotation, BadProgramsGetACodeAndLeaveNothingOpen) {
  pm_prog_mx_t prog = ThreeSets(PM_USER);
  EXPECT_EQ(pm_set_program_mythread_mx(nullptr), Pmapi_InvalidArg);
  prog.nb_events_prog = 0;
  EXPECT_EQ(pm_set_program_mythread_mx(&prog), Pmapi_InvalidArg);
  prog.nb_events_prog = -2;
  EXPECT_EQ(pm_set_program_mythread_mx(&prog), Pmapi_InvalidArg);
  prog.nb_events_prog = pmapi::kMaxMultiplexSets + 1;
  EXPECT_EQ(pm_set_program_mythread_mx(&prog), Pmapi_InvalidArg);
  EXPECT_NE(std::string(pm_strerror("set", Pmapi_InvalidArg)).find("at most"), std::string::npos);
  prog.nb_events_prog = 3;
  prog.events_set = nullptr;
  EXPECT_EQ(pm_set_program_mythread_mx(&prog), Pmapi_InvalidArg);
  prog = ThreeSets(PM_USER);
  prog.slice_duration = -1;
  EXPECT_EQ(pm_set_program_mythread_mx(&prog), Pmapi_InvalidArg);
  prog = ThreeSets(PM_USER);
  sets_[1][0] = sets_[1][1] = COUNT_NOTHING;
  EXPECT_EQ(pm_set_program_mythread_mx(&prog), Pmapi_NoEvents);
  EXPECT_NE(std::string(pm_strerror("set", Pmapi_NoEvents)).find("event set 1"), std::string::npos)
      << pm_strerror("set", Pmapi_NoEvents);
  prog = ThreeSets(0);
  EXPECT_EQ(pm_set_program_mythread_mx(&prog), Pmapi_NoDomain);
  prog = ThreeSets(PM_USER);
  sets_[2][3] = 987654;
  EXPECT_NE(pm_set_program_mythread_mx(&prog), 0);
  pm_prog_mm_t mm = {10, 1, nullptr};
  EXPECT_EQ(pm_set_program_mythread_mm(&mm), Pmapi_InvalidArg);
  EXPECT_EQ(pm_set_program_mythread_mm(nullptr), Pmapi_InvalidArg);
  EXPECT_EQ(perf_.open(), 0) << "nothing half-built";
  EXPECT_EQ(pm_get_program_mythread(nullptr), Pmapi_NoSetProg);

  // A later set the kernel refuses: the earlier sets' groups are closed again.
  prog = ThreeSets(PM_USER);
  perf_.fail_open_at = 4;  // set 2's first event: sets 0 and 1 took 3 opens
  EXPECT_EQ(pm_set_program_mythread_mx(&prog), Pmapi_TooManyFiles);
  EXPECT_EQ(perf_.open(), 0);
}

}  // namespace
