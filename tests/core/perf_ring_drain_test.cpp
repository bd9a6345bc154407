// SPDX-License-Identifier: MIT
// The core's ring reader (src/core/perf_ring.cpp) on the real kernel, exactly: a tracepoint sampled
// at every hit (syscalls:sys_enter_getppid, period 1) is redirected into a PerfRing, so N getppid
// calls write exactly N sample records. Every drain must hand over every complete record, including
// the last one, which ends exactly at data_head, and records that wrap around the ring's end.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>

#include "base/kernel.h"
#include "core/perf_ring.h"
#include "support/perf_attr.h"

namespace {

// The tracepoint's id from tracefs, or -1 (not root, no tracefs).
long GetppidTracepointId() {
  struct stat st;
  if (stat("/sys/kernel/tracing/events", &st) != 0 && geteuid() == 0) {
    mount("nodev", "/sys/kernel/tracing", "tracefs", 0, nullptr);
  }
  for (const char* path : {"/sys/kernel/tracing/events/syscalls/sys_enter_getppid/id",
                           "/sys/kernel/debug/tracing/events/syscalls/sys_enter_getppid/id"}) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) continue;
    char text[32] = {};
    ssize_t n = read(fd, text, sizeof text - 1);
    close(fd);
    if (n > 0) return strtol(text, nullptr, 10);
  }
  return -1;
}

// A dummy event of this thread on `cpu` that owns the ring, or -errno.
int OpenAnchor(int cpu) {
  return pmapi::CurrentKernel().PerfEventOpen(
      pmapi_test::UserModeAttr(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY), 0, cpu, -1);
}

class RingDrain : public ::testing::Test {
 protected:
  void SetUp() override {
    const long id = GetppidTracepointId();
    if (id < 0) GTEST_SKIP() << "needs a readable tracefs (root) for sys_enter_getppid";
    // The ring is one CPU's: keep this thread on it.
    cpu_ = sched_getcpu();
    ASSERT_GE(cpu_, 0);
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu_, &set);
    ASSERT_EQ(sched_setaffinity(0, sizeof set, &set), 0);
    anchor_ = OpenAnchor(cpu_);
    ASSERT_GE(anchor_, 0) << strerror(-anchor_);
    ASSERT_EQ(ring_.Map(anchor_, 8), 0);  // 8 pages: the smallest ring, so that it wraps soon
    perf_event_attr attr{};
    attr.size = sizeof attr;
    attr.disabled = 1;
    attr.sample_type = PERF_SAMPLE_TID;
    attr.type = PERF_TYPE_TRACEPOINT;
    attr.config = static_cast<uint64_t>(id);
    attr.sample_period = 1;
    pmapi::Kernel& kernel = pmapi::CurrentKernel();
    fd_ = kernel.PerfEventOpen(attr, 0, cpu_, -1);
    ASSERT_GE(fd_, 0) << "perf_event_open: " << strerror(-fd_);
    ASSERT_EQ(kernel.Ioctl(fd_, PERF_EVENT_IOC_SET_OUTPUT, static_cast<unsigned long>(anchor_)), 0);
    ASSERT_EQ(kernel.Ioctl(fd_, PERF_EVENT_IOC_ENABLE, 0), 0);
  }
  void TearDown() override {
    ring_.Unmap();
    if (fd_ >= 0) close(fd_);
    if (anchor_ >= 0) close(anchor_);
  }
  static void Getppid(int n) {
    for (int i = 0; i < n; ++i) syscall(SYS_getppid);
  }
  // Drains the ring; returns how many sample records it handed over, checking each is whole.
  int DrainSamples() {
    int samples = 0;
    ring_.Drain([&](const perf_event_header& header, const uint8_t* record) {
      perf_event_header copy;
      memcpy(&copy, record, sizeof copy);
      EXPECT_EQ(copy.size, header.size) << "the record starts with its header";
      if (header.type == PERF_RECORD_SAMPLE) {
        ++samples;
        uint32_t pid_tid[2];
        memcpy(pid_tid, record + sizeof header, sizeof pid_tid);  // PERF_SAMPLE_TID first
        EXPECT_EQ(pid_tid[1], static_cast<uint32_t>(syscall(SYS_gettid)));
      }
      EXPECT_NE(header.type, static_cast<uint32_t>(PERF_RECORD_LOST)) << "the ring overflowed";
    });
    return samples;
  }

  pmapi::PerfRing ring_;
  int cpu_ = -1;
  int anchor_ = -1;
  int fd_ = -1;
};

TEST_F(RingDrain, OneRecordEndingAtTheHeadIsHandedOver) {
  EXPECT_EQ(DrainSamples(), 0);
  Getppid(1);
  EXPECT_EQ(DrainSamples(), 1) << "the only record ends exactly at data_head";
  EXPECT_EQ(DrainSamples(), 0) << "and is not handed over twice";
}

TEST_F(RingDrain, EveryDrainHandsOverAllItsRecords) {
  for (int round = 1; round <= 5; ++round) {
    Getppid(round);
    EXPECT_EQ(DrainSamples(), round) << "round " << round;
  }
}

TEST_F(RingDrain, RecordsWrappingTheRingEndArriveWhole) {
  // 8 pages hold a few hundred samples: 40 drains of 25 calls go round the ring several times,
  // with records split across its end on the way.
  int total = 0;
  for (int round = 0; round < 40; ++round) {
    Getppid(25);
    total += DrainSamples();
  }
  EXPECT_EQ(total, 1000);
}

}  // namespace
