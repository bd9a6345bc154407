// SPDX-License-Identifier: MIT
// An _mx set's accu_time is the time its counters ran, not the time they were enabled: when the
// kernel shares the PMU inside a set too (time_running < time_enabled), an estimate
// accu_data * total / accu_time from the enabled time would read as if the set had counted all
// the while it was switched in. A perf double on a fake clock gives each set a known share of
// its enabled time and counts one per microsecond of running time, so both are exact.
#include <gtest/gtest.h>
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>

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

// Group leaders in opening order run 1/2, 1/4, 1/8 ... of the time they are enabled; each
// event counts one per microsecond of running time.
class SharedPmuPerf : public FakeKernel {
 public:
  uint64_t now = 0;  // ns

  int PerfEventOpen(const perf_event_attr &, pid_t, int, int group_fd) override {
    std::lock_guard<std::mutex> lock(mutex_);
    const int fd = next_fd_++;
    if (group_fd < 0) {
      Leader leader;
      leader.divisor = 2ull << leaders_.size();
      leaders_[fd] = leader;
    } else {
      ++leaders_.at(group_fd).members;
    }
    return fd;
  }
  int Ioctl(int fd, unsigned long request, unsigned long) override {
    std::lock_guard<std::mutex> lock(mutex_);
    Leader &leader = leaders_.at(fd);
    Settle(&leader);
    if (request == PERF_EVENT_IOC_ENABLE) leader.enabled = true;
    if (request == PERF_EVENT_IOC_DISABLE) leader.enabled = false;
    return 0;
  }
  ssize_t Read(int fd, void *buf, size_t size) override {
    std::lock_guard<std::mutex> lock(mutex_);
    Leader &leader = leaders_.at(fd);
    Settle(&leader);
    const size_t n = 1 + leader.members;
    const uint64_t running = leader.enabled_ns / leader.divisor;
    uint64_t out[3 + 16] = {n, leader.enabled_ns, running};
    for (size_t i = 0; i < n; ++i) out[3 + i] = running / 1000;
    const size_t bytes = sizeof(uint64_t) * (3 + n);
    if (size < bytes) return -EINVAL;
    memcpy(buf, out, bytes);
    return static_cast<ssize_t>(bytes);
  }
  int Close(int) override { return 0; }

 private:
  struct Leader {
    bool enabled = false;
    uint64_t since = 0;
    uint64_t enabled_ns = 0;
    uint64_t divisor = 1;
    size_t members = 0;
  };
  void Settle(Leader *leader) {
    if (leader->enabled) leader->enabled_ns += now - leader->since;
    leader->since = now;
  }

  std::mutex mutex_;
  int next_fd_ = 200000;
  std::map<int, Leader> leaders_;
};

class MxRunningTime : public HandDrivenMx {
 protected:
  void AfterInitialize() override {
    a_ = EventId("cpu-migrations");  // software events only: no tracepoint anchor is opened
    b_ = EventId("page-faults");
    pmapi::SetKernelForTesting(&perf_);
  }

  SharedPmuPerf perf_;
  int a_ = 0, b_ = 0;
};

TEST_F(MxRunningTime, AccuTimeIsEachSetsRunningTime) {
  pm_events_prog_t sets[2];
  ClearSets(sets, 2);
  sets[0][0] = a_;
  sets[1][0] = a_, sets[1][1] = b_;
  pm_prog_mx_t prog = MxProgram(sets, 2, PM_USER | PM_COUNT);
  ASSERT_EQ(pm_set_program_mythread_mx(&prog), 0) << pm_strerror("set", 0);
  // Set 0 switched in for 40 ms (runs 1/2 of it: 20 ms), set 1 for 40 ms (1/4: 10 ms), then
  // set 0 for 8 ms more (4 ms).
  perf_.now += 40 * kMs;
  ASSERT_TRUE(Mx()->Switch().ok());
  perf_.now += 40 * kMs;
  ASSERT_TRUE(Mx()->Switch().ok());
  perf_.now += 8 * kMs;

  pm_data_mx_t data = {};
  ASSERT_EQ(pm_get_data_mythread_mx(&data), 0);
  ASSERT_NE(data.accu_set, nullptr);
  ASSERT_EQ(data.nb_accu_mx, 2);
  EXPECT_EQ(Ticks(data.accu_set[0].accu_time), 24 * kMs) << "set 0 ran half of its 48 ms";
  EXPECT_EQ(Ticks(data.accu_set[1].accu_time), 10 * kMs) << "set 1 ran a quarter of its 40 ms";
  EXPECT_EQ(Ticks(data.accu_set[0].accu_purr), 24 * kMs);
  EXPECT_EQ(Ticks(data.accu_set[1].accu_spurr), 10 * kMs);
  EXPECT_EQ(data.accu_set[0].accu_data[0], 24000);
  EXPECT_EQ(data.accu_set[1].accu_data[0], 10000);
  EXPECT_EQ(data.accu_set[1].accu_data[1], 10000);
  // Both sets see event a at the same rate: one per microsecond of their running time.
  for (int k = 0; k < 2; ++k) {
    EXPECT_DOUBLE_EQ(
        double(data.accu_set[k].accu_data[0]) * 1000.0 / double(Ticks(data.accu_set[k].accu_time)),
        1.0)
        << "set " << k;
  }
  free(data.accu_set);
}

}  // namespace
