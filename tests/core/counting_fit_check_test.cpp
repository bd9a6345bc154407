// SPDX-License-Identifier: MIT
// The set-time fit check (CounterGroup::CheckSchedulable, run by Context::Create): a group of
// hardware events the counters cannot hold together is refused when it is set, with the
// sentence that says so, as AIX refuses it. The kernel opens such a group and tells only when it
// tries to schedule it: a pinned leader it could not schedule reads 0 bytes. Here hardware
// events become real task-clock events, and the pinned hardware leader's reads give 0 bytes
// while the counters are "full".
#include <gtest/gtest.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <future>
#include <mutex>
#include <set>
#include <thread>

#include "core/context.h"
#include "core/program.h"
#include "support/fake_kernel.h"
#include "support/perf_attr.h"

using namespace pmapi_test;

namespace {

class FullCountersKernel : public FakeKernel {
 public:
  int PerfEventOpen(const perf_event_attr &attr, pid_t pid, int cpu, int group_fd) override {
    perf_event_attr soft = attr;
    const bool hardware = attr.type == PERF_TYPE_HARDWARE;
    if (hardware) {
      soft.type = PERF_TYPE_SOFTWARE;
      soft.config = PERF_COUNT_SW_TASK_CLOCK;
    }
    const int fd = FakeKernel::PerfEventOpen(soft, pid, cpu, group_fd);
    std::lock_guard<std::mutex> lock(mutex_);
    if (fd >= 0) {
      open_.insert(fd);
      if (hardware && attr.pinned && group_fd == -1) pinned_hardware_leaders_.insert(fd);
    }
    return fd;
  }
  ssize_t Read(int fd, void *buf, size_t size) override {
    const ssize_t n = FakeKernel::Read(fd, buf, size);
    std::lock_guard<std::mutex> lock(mutex_);
    if (n > 0 && full && pinned_hardware_leaders_.count(fd)) return 0;
    return n;
  }
  int Close(int fd) override {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      open_.erase(fd);
      pinned_hardware_leaders_.erase(fd);
    }
    return FakeKernel::Close(fd);
  }
  size_t OpenDescriptors() {
    std::lock_guard<std::mutex> lock(mutex_);
    return open_.size();
  }

  bool full = true;  // set before use: the counters cannot hold the group

 private:
  std::mutex mutex_;
  std::set<int> open_;
  std::set<int> pinned_hardware_leaders_;
};

pmapi::Program TwoHardwareEvents() {
  return pmapi::Program()
      .WithLibraryEvent("cycles", UserModeAttr(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES))
      .WithLibraryEvent("instructions",
                        UserModeAttr(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS));
}

pmapi::GroupTarget Thread(pid_t tid, const char *description) {
  pmapi::GroupTarget target;
  target.pid = tid;
  target.description = description;
  return target;
}

pid_t MyTid() { return static_cast<pid_t>(syscall(SYS_gettid)); }

class FitCheck : public ::testing::Test {
 protected:
  FullCountersKernel kernel_;
  ScopedKernel scoped_{&kernel_};
};

TEST_F(FitCheck, AGroupThatDoesNotFitIsRefusedWhenSet) {
  std::unique_ptr<pmapi::Context> context;
  const pmapi::Status status = pmapi::Context::Create(
      TwoHardwareEvents(), {Thread(MyTid(), "the calling thread")}, false, &context);
  EXPECT_EQ(status.code(), Pmapi_NotSchedulable) << status.detail();
  EXPECT_NE(status.detail().find("2 events do not fit the counters of the calling thread together "
                                 "(more hardware events than counters"),
            std::string::npos)
      << status.detail();
  EXPECT_EQ(context, nullptr);
  EXPECT_EQ(kernel_.OpenDescriptors(), 0u) << "nothing stays open";
}

// Another thread's enable waits for it to run: the same events are tried as a group on the
// calling thread, whose pinned leader reads 0 bytes as well.
TEST_F(FitCheck, AnotherThreadsGroupIsTriedOnTheCallingThread) {
  std::promise<pid_t> tid;
  std::promise<void> done;
  std::thread other([&] {
    tid.set_value(MyTid());
    done.get_future().wait();
  });
  const pid_t other_tid = tid.get_future().get();
  std::unique_ptr<pmapi::Context> context;
  const pmapi::Status status = pmapi::Context::Create(
      TwoHardwareEvents(), {Thread(other_tid, "the other thread")}, false, &context);
  done.set_value();
  other.join();
  EXPECT_EQ(status.code(), Pmapi_NotSchedulable) << status.detail();
  EXPECT_NE(status.detail().find("2 events do not fit the counters of the other thread together"),
            std::string::npos)
      << status.detail();
  EXPECT_EQ(kernel_.OpenDescriptors(), 0u) << "nothing stays open";
}

TEST_F(FitCheck, AGroupThatFitsIsSet) {
  kernel_.full = false;
  std::unique_ptr<pmapi::Context> context;
  const pmapi::Status status = pmapi::Context::Create(
      TwoHardwareEvents(), {Thread(MyTid(), "the calling thread")}, false, &context);
  ASSERT_TRUE(status.ok()) << status.detail();
  EXPECT_NE(context, nullptr);
  context.reset();
  EXPECT_EQ(kernel_.OpenDescriptors(), 0u);
}

}  // namespace
