// SPDX-License-Identifier: MIT
// The counting session when the kernel or the machine says no, through the kernel seam:
// descriptors running out before or during the opens, hardware events that do not fit the
// counters (refused, split into groups that take turns, scaled), an enable or a reset that
// fails part way. Never a silent zero, never a descriptor left open, never half a start.
#include <errno.h>
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "base/tracefs.h"
#include "core/counting_session.h"
#include "core/hardware_groups.h"
#include "support/counting.h"
#include "support/fake_kernel.h"

using namespace pmapi;
using namespace pmapi_test;

namespace {

SessionEvent Software(uint64_t config, const std::string &name) {
  SessionEvent event;
  event.name = name;
  event.attr.size = sizeof(perf_event_attr);
  event.attr.type = PERF_TYPE_SOFTWARE;
  event.attr.config = config;
  event.attr.exclude_hv = 1;
  event.kind = KindOf(event.attr);
  return event;
}

SessionEvent Hardware(uint64_t config, const std::string &name) {
  SessionEvent event = Software(0, name);
  event.attr.type = PERF_TYPE_HARDWARE;
  event.attr.config = config;
  event.kind = KindOf(event.attr);
  return event;
}

std::vector<SessionEvent> SoftwareEvents(size_t n) {
  std::vector<SessionEvent> events;
  for (size_t i = 0; i < n; ++i) {
    events.push_back(Software(PERF_COUNT_SW_TASK_CLOCK, "task-clock#" + std::to_string(i)));
  }
  return events;
}

std::vector<SessionTarget> CallingThread() { return {SessionTarget()}; }

// syscalls:sys_enter_getppid, which counts exactly the calls made; false without tracefs.
bool GetppidTracepoint(SessionEvent *event) {
  const std::string root = FindTracefsRoot("events/syscalls/sys_enter_getppid/id", nullptr);
  uint64_t id = 0;
  std::string text;
  if (root.empty() ||
      ReadTracepointId(TracepointIdPath(root, "syscalls:sys_enter_getppid"), &id, &text) != 0) {
    return false;
  }
  *event = Software(0, "syscalls:sys_enter_getppid");
  event->attr.type = PERF_TYPE_TRACEPOINT;
  event->attr.config = id;
  event->kind = KindOf(event->attr);
  return true;
}

// Passes every call to the real kernel but the `nth` enable ioctl, or the `nth` read, which
// fail with EIO.
class NthCallFails : public InstalledKernel {
 public:
  NthCallFails(unsigned long enables, int reads) : enable_(enables), read_(reads) {}
  int Ioctl(int fd, unsigned long request, unsigned long arg) override {
    if (request == PERF_EVENT_IOC_ENABLE && ++enables_ == enable_) return -EIO;
    return InstalledKernel::Ioctl(fd, request, arg);
  }
  ssize_t Read(int fd, void *buf, size_t size) override {
    if (++reads_ == read_) return -EIO;
    return InstalledKernel::Read(fd, buf, size);
  }

 private:
  unsigned long enable_, enables_ = 0;
  int read_, reads_ = 0;
};

TEST(SessionFaults, DescriptorsRunningOutMidOpenLeaveNothingOpenAndSayUlimit) {
  const int before = CountPerfDescriptors();
  InstalledKernel kernel;
  int opens = 0;
  kernel.SetPerfEventOpenHook([&](const perf_event_attr &) { return ++opens > 7 ? EMFILE : 0; });
  CountingSession session;
  const Status status = session.Open(SoftwareEvents(20), CallingThread());
  EXPECT_EQ(status.code(), Pmapi_TooManyFiles);
  EXPECT_NE(status.detail().find("ulimit -n"), std::string::npos) << status.detail();
  EXPECT_NE(status.detail().find("needs 20 file descriptors"), std::string::npos)
      << status.detail();
  EXPECT_FALSE(session.is_open());
  EXPECT_EQ(session.descriptors(), 0u);
  EXPECT_EQ(CountPerfDescriptors(), before) << "every descriptor opened was closed";
}

TEST(SessionFaults, TooFewDescriptorsForTheSessionAreFoundBeforeAnyOpen) {
  rlimit saved{};
  ASSERT_EQ(getrlimit(RLIMIT_NOFILE, &saved), 0);
  rlimit low = saved;
  low.rlim_cur = 64;
  ASSERT_EQ(setrlimit(RLIMIT_NOFILE, &low), 0);
  InstalledKernel kernel;
  CountingSession session;
  const Status status = session.Open(SoftwareEvents(200), CallingThread());
  setrlimit(RLIMIT_NOFILE, &saved);
  EXPECT_EQ(status.code(), Pmapi_TooManyFiles);
  EXPECT_NE(status.detail().find("ulimit -n is 64"), std::string::npos) << status.detail();
  EXPECT_NE(status.detail().find("needs 200 file descriptors"), std::string::npos);
  EXPECT_EQ(kernel.Calls(FakeKernel::Op::kPerfEventOpen), 0) << "nothing tried";
}

TEST(SessionFaults, TheDescriptorCheckCountsWithoutListingWhereTheKernelSaysTheCount) {
  FileStat fd_dir;
  ASSERT_EQ(RealKernel().Stat("/proc/self/fd", &fd_dir), 0);
  if (fd_dir.size == 0) GTEST_SKIP() << "this kernel does not report /proc/self/fd's size";
  InstalledKernel kernel;
  CountingSession session;
  ASSERT_TRUE(session.Open(SoftwareEvents(1), CallingThread()).ok());
  EXPECT_EQ(kernel.Calls(FakeKernel::Op::kListDirectory), 0);
  EXPECT_GE(kernel.Calls(FakeKernel::Op::kStat), 1);
}

TEST(SessionFaults, TheDescriptorCheckListsTheDirectoryWhereItsSizeSaysNothing) {
  rlimit saved{};
  ASSERT_EQ(getrlimit(RLIMIT_NOFILE, &saved), 0);
  rlimit low = saved;
  low.rlim_cur = 64;
  InstalledKernel kernel;
  // A directory served by the double stats with size 0, as before Linux 6.2: 60 descriptors
  // listed leave no room for 1 event and the spare ones.
  std::vector<std::string> open;
  for (int fd = 0; fd < 60; ++fd) open.push_back(std::to_string(fd));
  kernel.SetDirectory("/proc/self/fd", open);
  ASSERT_EQ(setrlimit(RLIMIT_NOFILE, &low), 0);
  CountingSession session;
  const Status status = session.Open(SoftwareEvents(1), CallingThread());
  setrlimit(RLIMIT_NOFILE, &saved);
  EXPECT_EQ(status.code(), Pmapi_TooManyFiles);
  EXPECT_EQ(kernel.Calls(FakeKernel::Op::kListDirectory), 1);
  EXPECT_EQ(kernel.Calls(FakeKernel::Op::kPerfEventOpen), 0) << "nothing tried";
}

TEST(SessionFaults, EverySoftwareEventHasADescriptorOfItsOwn) {
  const int before = CountPerfDescriptors();
  CountingSession session;
  ASSERT_TRUE(session.Open(SoftwareEvents(40), CallingThread()).ok());
  EXPECT_EQ(CountPerfDescriptors(), before + 40);
  EXPECT_EQ(session.GroupOf(0), -1);
  ASSERT_TRUE(session.Enable().ok());
  ASSERT_TRUE(session.Disable().ok());
  std::vector<SessionCount> counts(40);
  ASSERT_TRUE(session.Read(CountingSession::kAny, CountingSession::kAny, counts.data(), 40).ok());
  for (const SessionCount &count : counts) {
    EXPECT_FALSE(count.scaled);
    EXPECT_EQ(count.enabled, count.running);
  }
  session.Close();
  EXPECT_EQ(CountPerfDescriptors(), before);
}

// A machine with `counters` hardware counters, simulated over software events: a hardware event
// opens as task-clock; a pinned group holding more hardware events than counters reads 0 bytes
// (the kernel could not schedule it); a group allowed to rotate runs half the time it is
// enabled.
class CountersKernel : public InstalledKernel {
 public:
  explicit CountersKernel(int counters) : counters_(counters) {}

  int PerfEventOpen(const perf_event_attr &attr, pid_t pid, int cpu, int group_fd) override {
    perf_event_attr opened = attr;
    const bool hardware = attr.type == PERF_TYPE_HARDWARE;
    if (hardware) {
      opened.type = PERF_TYPE_SOFTWARE;
      opened.config = PERF_COUNT_SW_TASK_CLOCK;
    }
    const int fd = FakeKernel::PerfEventOpen(opened, pid, cpu, group_fd);
    if (fd < 0) return fd;
    std::lock_guard<std::mutex> lock(mutex_);
    const int leader = group_fd < 0 ? fd : group_fd;
    if (group_fd < 0) groups_[fd] = Group{attr.pinned != 0, 0};
    if (hardware) ++groups_[leader].hardware;
    leader_of_[fd] = leader;
    return fd;
  }

  ssize_t Read(int fd, void *buf, size_t size) override {
    Group group;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      auto found = groups_.find(fd);
      if (found == groups_.end()) return FakeKernel::Read(fd, buf, size);
      group = found->second;
    }
    if (group.pinned && group.hardware > counters_) return 0;
    const ssize_t n = FakeKernel::Read(fd, buf, size);
    if (n > 0 && !group.pinned && group.hardware > 0) {
      uint64_t *words = static_cast<uint64_t *>(buf);
      words[2] = words[1] / 2;  // time_running: half of time_enabled
    }
    return n;
  }

  int Close(int fd) override {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      groups_.erase(fd);
      leader_of_.erase(fd);
    }
    return FakeKernel::Close(fd);
  }

 private:
  struct Group {
    bool pinned = true;
    int hardware = 0;
  };
  const int counters_;
  std::mutex mutex_;
  std::map<int, Group> groups_;
  std::map<int, int> leader_of_;
};

TEST(SessionFaults, HardwareEventThatFitsNoCounterIsRefusedNotSilent) {
  const int before = CountPerfDescriptors();
  CountersKernel kernel(0);
  CountingSession session;
  std::vector<SessionEvent> events = SoftwareEvents(3);
  events.push_back(Hardware(PERF_COUNT_HW_CPU_CYCLES, "cycles"));
  const Status status = session.Open(events, CallingThread());
  EXPECT_EQ(status.code(), Pmapi_NotSchedulable);
  EXPECT_NE(status.detail().find("cycles does not fit the counters"), std::string::npos)
      << status.detail();
  EXPECT_EQ(CountPerfDescriptors(), before);
}

TEST(SessionFaults, HardwareEventsThatFitTogetherArePinnedInOneGroup) {
  CountersKernel kernel(4);
  CountingSession session;
  std::vector<SessionEvent> events = {Hardware(PERF_COUNT_HW_CPU_CYCLES, "cycles"),
                                      Software(PERF_COUNT_SW_PAGE_FAULTS, "page-faults"),
                                      Hardware(PERF_COUNT_HW_INSTRUCTIONS, "instructions")};
  ASSERT_TRUE(session.Open(events, CallingThread()).ok());
  EXPECT_EQ(session.GroupOf(0), 0);
  EXPECT_EQ(session.GroupOf(1), -1);
  EXPECT_EQ(session.GroupOf(2), 0);
  ASSERT_TRUE(session.Enable().ok());
  CallGetppid(1000);
  ASSERT_TRUE(session.Disable().ok());
  SessionCount counts[3];
  ASSERT_TRUE(session.Read(CountingSession::kAny, CountingSession::kAny, counts, 3).ok());
  EXPECT_FALSE(counts[0].scaled);
  EXPECT_EQ(counts[0].value, counts[0].raw);
  EXPECT_GT(counts[0].raw, 0u);
}

TEST(SessionFaults, HardwareEventsThatDoNotFitTakeTurnsAndAreScaled) {
  CountersKernel kernel(2);
  CountingSession session;
  std::vector<SessionEvent> events = {Hardware(PERF_COUNT_HW_CPU_CYCLES, "cycles"),
                                      Hardware(PERF_COUNT_HW_INSTRUCTIONS, "instructions"),
                                      Hardware(PERF_COUNT_HW_BRANCH_INSTRUCTIONS, "branches")};
  ASSERT_TRUE(session.Open(events, CallingThread()).ok());
  EXPECT_EQ(session.GroupOf(0), 0);
  EXPECT_EQ(session.GroupOf(1), 1);
  EXPECT_EQ(session.GroupOf(2), 1);
  ASSERT_TRUE(session.Enable().ok());
  CallGetppid(1000);
  ASSERT_TRUE(session.Disable().ok());
  SessionCount counts[3];
  ASSERT_TRUE(session.Read(CountingSession::kAny, CountingSession::kAny, counts, 3).ok());
  for (const SessionCount &count : counts) {
    EXPECT_TRUE(count.scaled);
    EXPECT_EQ(count.running, count.enabled / 2);
    EXPECT_EQ(count.value, static_cast<uint64_t>(static_cast<unsigned __int128>(count.raw) *
                                                 count.enabled / count.running));
  }
}

// A flexible session leaves its hardware groups unpinned even when they fit: the kernel may give
// their counters to another user's pinned events, and the counts say so (scaled).
TEST(SessionFaults, AFlexibleSessionNeverPinsItsHardwareGroups) {
  CountersKernel kernel(4);
  CountingSession session;
  session.set_flexible(true);
  std::vector<SessionEvent> events = {Hardware(PERF_COUNT_HW_CPU_CYCLES, "cycles"),
                                      Hardware(PERF_COUNT_HW_INSTRUCTIONS, "instructions")};
  ASSERT_TRUE(session.Open(events, CallingThread()).ok());
  EXPECT_EQ(session.GroupOf(0), 0);
  EXPECT_EQ(session.GroupOf(1), 0);
  ASSERT_TRUE(session.Enable().ok());
  CallGetppid(1000);
  ASSERT_TRUE(session.Disable().ok());
  SessionCount counts[2];
  ASSERT_TRUE(session.Read(CountingSession::kAny, CountingSession::kAny, counts, 2).ok());
  for (const SessionCount &count : counts) {
    EXPECT_TRUE(count.scaled);
    EXPECT_EQ(count.running, count.enabled / 2);
  }
}

TEST(SessionFaults, ResetStartsCountsAndTimesAgain) {
  CountingSession session;
  std::vector<SessionEvent> events = {Software(PERF_COUNT_SW_TASK_CLOCK, "task-clock")};
  ASSERT_TRUE(session.Open(events, CallingThread()).ok());
  ASSERT_TRUE(session.Enable().ok());
  CallGetppid(1000);
  ASSERT_TRUE(session.Disable().ok());
  ASSERT_TRUE(session.Reset().ok());
  SessionCount count;
  ASSERT_TRUE(session.Read(CountingSession::kAny, CountingSession::kAny, &count, 1).ok());
  EXPECT_EQ(count.raw, 0u);
  EXPECT_EQ(count.enabled, 0u);
}

// A start the caller is told failed counts nothing: the groups enabled before the one that
// failed are disabled again.
TEST(SessionFaults, AnEnableThatFailsPartWayLeavesNothingCounting) {
  SessionEvent getppid;
  if (!GetppidTracepoint(&getppid)) GTEST_SKIP() << "needs tracefs";
  CountingSession session;
  ASSERT_TRUE(session.Open({getppid, getppid}, CallingThread()).ok());
  {
    NthCallFails kernel(2, 0);
    EXPECT_FALSE(session.Enable().ok()) << "the second group's enable fails";
  }
  CallGetppid(100);
  SessionCount counts[2];
  ASSERT_TRUE(session.Read(CountingSession::kAny, CountingSession::kAny, counts, 2).ok());
  EXPECT_EQ(counts[0].raw, 0u) << "the first group, enabled before the failure, was disabled";
  EXPECT_EQ(counts[1].raw, 0u);
}

// A reset the caller is told failed moves no baseline: the counts read on as before.
TEST(SessionFaults, AResetThatFailsPartWayMovesNoBaseline) {
  SessionEvent getppid;
  if (!GetppidTracepoint(&getppid)) GTEST_SKIP() << "needs tracefs";
  CountingSession session;
  ASSERT_TRUE(session.Open({getppid, getppid}, CallingThread()).ok());
  ASSERT_TRUE(session.Enable().ok());
  CallGetppid(100);
  ASSERT_TRUE(session.Disable().ok());
  {
    NthCallFails kernel(0, 2);
    EXPECT_FALSE(session.Reset().ok()) << "the second group's read fails";
  }
  SessionCount counts[2];
  ASSERT_TRUE(session.Read(CountingSession::kAny, CountingSession::kAny, counts, 2).ok());
  EXPECT_EQ(counts[0].raw, 100u) << "the first group's baseline did not move";
  EXPECT_EQ(counts[1].raw, 100u);
}

TEST(SessionFaults, AVanishedThreadIsAnErrorNamingIt) {
  CountingSession session;
  SessionTarget target;
  target.kind = SessionTarget::Kind::kThread;
  target.pid = 0x3ffffff0;  // beyond any pid_max
  const Status status = session.Open(SoftwareEvents(2), {target});
  EXPECT_EQ(status.code(), Pmapi_NoSuchThread) << status.detail();
  EXPECT_FALSE(session.is_open());
}

}  // namespace
