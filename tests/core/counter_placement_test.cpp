// SPDX-License-Identifier: MIT
// A PMU that places each member of a group on a counter when the member is opened (POWER's)
// refuses one it has no counter left for with EINVAL at open, where x86 and ARM open it and fail
// the group's read. Through the kernel seam: a kernel with two counters, the hardware events
// turned into task-clock so that what it accepts really opens. The refusal says the events do
// not fit the counters, with Pmapi_NotSchedulable, naming the member and its counter; a member
// the kernel refuses even alone keeps the kernel's own answer.
#include <errno.h>
#include <gtest/gtest.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <map>
#include <string>
#include <vector>

#include "base/kernel.h"
#include "core/counter_group.h"
#include "core/program.h"
#include "support/fake_kernel.h"
#include "support/perf_attr.h"

using namespace pmapi_test;

namespace {

constexpr uint64_t kRefusedAlone = 0x7777;  // a raw config this kernel never opens

class PlacingKernel : public FakeKernel {
 public:
  int PerfEventOpen(const perf_event_attr &attr, pid_t pid, int cpu, int group_fd) override {
    const bool hardware = attr.type == PERF_TYPE_HARDWARE || attr.type == PERF_TYPE_RAW;
    if (attr.type == PERF_TYPE_RAW && attr.config == kRefusedAlone) return -EINVAL;
    if (hardware && group_fd >= 0 && placed_[group_fd] == kCounters) return -EINVAL;
    perf_event_attr soft = attr;
    if (hardware) {
      soft.type = PERF_TYPE_SOFTWARE;
      soft.config = PERF_COUNT_SW_TASK_CLOCK;
    }
    const int fd = FakeKernel::PerfEventOpen(soft, pid, cpu, group_fd);
    if (fd < 0) return fd;
    open_.push_back(fd);
    if (group_fd < 0) placed_[fd] = 0;
    if (hardware) ++placed_[group_fd < 0 ? fd : group_fd];
    return fd;
  }
  int Close(int fd) override {
    placed_.erase(fd);
    for (size_t i = 0; i < open_.size(); ++i) {
      if (open_[i] == fd) open_.erase(open_.begin() + static_cast<long>(i));
    }
    return FakeKernel::Close(fd);
  }
  size_t StillOpen() const { return open_.size(); }

 private:
  static constexpr int kCounters = 2;
  std::map<int, int> placed_;  // per leader: the hardware events its group holds
  std::vector<int> open_;
};

perf_event_attr Attr(uint32_t type, uint64_t config) { return UserModeAttr(type, config, false); }

pmapi::ProgrammedEvent Event(int counter, const std::string &name, const perf_event_attr &attr) {
  pmapi::ProgrammedEvent event;
  event.counter = counter;
  event.name = name;
  event.attr = attr;
  return event;
}

pmapi::Program ProgramOf(std::vector<pmapi::ProgrammedEvent> events) {
  pm_mode_t mode{};
  mode.w = PM_USER;
  int ids[MAX_COUNTERS];
  for (int &id : ids) id = COUNT_NOTHING;
  return pmapi::Program::FromResolvedAix(mode, ids, std::move(events));
}

pmapi::GroupTarget CallingThread() {
  pmapi::GroupTarget target;
  target.pid = static_cast<pid_t>(syscall(SYS_gettid));
  target.description = "the calling thread";
  return target;
}

TEST(CounterPlacement, AMemberWithNoCounterLeftIsRefusedAsNotFitting) {
  PlacingKernel kernel;
  ScopedKernel scoped(&kernel);
  const pmapi::Program program =
      ProgramOf({Event(0, "PM_CYC", Attr(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES)),
                 Event(1, "task-clock", Attr(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK)),
                 Event(2, "PM_INST_CMPL", Attr(PERF_TYPE_RAW, 0x2)),
                 Event(3, "PM_INST_CMPL", Attr(PERF_TYPE_RAW, 0x2))});
  pmapi::CounterGroup group;
  const pmapi::Status status = group.Open(program, CallingThread());
  EXPECT_EQ(status.code(), Pmapi_NotSchedulable) << status.detail();
  EXPECT_EQ(status.detail(),
            "4 events do not fit the counters of the calling thread together: the PMU has no "
            "counter left for PM_INST_CMPL (counter 3) beside the events before it (more "
            "hardware events than counters, or another user holds some); pm_set_program*_mx "
            "multiplexes them");
  EXPECT_EQ(kernel.StillOpen(), 0u) << "a refused group leaves nothing open";
}

TEST(CounterPlacement, AGroupThatFitsOpens) {
  PlacingKernel kernel;
  ScopedKernel scoped(&kernel);
  const pmapi::Program program =
      ProgramOf({Event(0, "PM_CYC", Attr(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES)),
                 Event(1, "PM_INST_CMPL", Attr(PERF_TYPE_RAW, 0x2))});
  pmapi::CounterGroup group;
  const pmapi::Status status = group.Open(program, CallingThread());
  EXPECT_TRUE(status.ok()) << status.detail();
}

// EINVAL for the event itself (it does not open alone either) is not a matter of counters.
TEST(CounterPlacement, AMemberRefusedAloneKeepsTheKernelsAnswer) {
  PlacingKernel kernel;
  ScopedKernel scoped(&kernel);
  const pmapi::Program program =
      ProgramOf({Event(0, "PM_CYC", Attr(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES)),
                 Event(1, "bad", Attr(PERF_TYPE_RAW, kRefusedAlone))});
  pmapi::CounterGroup group;
  const pmapi::Status status = group.Open(program, CallingThread());
  EXPECT_NE(status.code(), Pmapi_NotSchedulable) << status.detail();
  EXPECT_NE(status.detail().find("cannot open event bad (counter 1)"), std::string::npos)
      << status.detail();
}

}  // namespace
