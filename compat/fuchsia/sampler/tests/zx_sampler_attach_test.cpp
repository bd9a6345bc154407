// SPDX-License-Identifier: MIT
// What the sampler's sources do below the C interface, with the core's fake kernel
// (tests/support/fake_kernel.h): a thread is sampled once however it is reached (attached twice,
// or attached after it inherited the event of the thread that created it: a sample says whose
// event took it), and the DWARF unwinder reads the copied stack and nothing past it.
// The sample counts are exact: the event is the getppid tracepoint, a sample every kPeriod calls.
#include <errno.h>
#include <gtest/gtest.h>
#include <pthread.h>
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <fstream>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "dwarf_unwinder.h"
#include "sampler_test_support.h"
#include "support/fake_kernel.h"
#include "zircon/sampler-linux.h"
#include "zircon/syscalls-next.h"

namespace {

using sampler_test::Tid;

// The getppid tracepoint's id, or 0 without a readable tracefs (not root).
uint64_t GetppidTracepoint() {
  for (const char* root : {"/sys/kernel/tracing", "/sys/kernel/debug/tracing"}) {
    std::ifstream file(std::string(root) + "/events/syscalls/sys_enter_getppid/id");
    uint64_t id = 0;
    if (file >> id) return id;
  }
  return 0;
}

constexpr int kPeriod = 10000;  // the smallest period a session takes

// `samples` periods of calls, and half of one more (no sample is due at the end), all on one
// CPU: a thread's event is one per CPU, each counting its own share of the calls.
void CallGetppidFor(int samples) {
  cpu_set_t before, one;
  sched_getaffinity(0, sizeof before, &before);
  CPU_ZERO(&one);
  CPU_SET(sched_getcpu(), &one);
  sched_setaffinity(0, sizeof one, &one);
  const int times = samples * kPeriod + kPeriod / 2;
  for (int i = 0; i < times; ++i) syscall(SYS_getppid);
  sched_setaffinity(0, sizeof before, &before);
}

long SamplesOf(zx_handle_t session, pid_t tid) {
  sampler_test::RegionContents regions = sampler_test::ReadRegions(session);
  EXPECT_TRUE(regions.errors.empty()) << regions.errors.front();
  long count = 0;
  for (const auto& sample : regions.samples)
    if (static_cast<pid_t>(sample.tid) == tid) ++count;
  return count;
}

class AttachOnce : public ::testing::Test {
 protected:
  void SetUp() override {
    tracepoint_ = GetppidTracepoint();
    if (tracepoint_ == 0) GTEST_SKIP() << "needs a readable tracefs (root) for sys_enter_getppid";
    pmapi::SetKernelForTesting(&kernel_);
    kernel_.SetPerfEventOpenHook([this](const perf_event_attr& attr) {
      if (attr.sample_period == 0) return 0;  // a ring's anchor
      std::lock_guard<std::mutex> lock(mutex_);
      ++sampling_opens_;
      return 0;
    });
    zx_sampler_config_t config{};
    config.period = kPeriod;
    config.buffer_size = 1 << 20;
    ASSERT_EQ(zx_sampler_create(0, 0, &config, &session_), ZX_OK) << zx_sampler_last_error();
    ASSERT_EQ(zx_sampler_set_event(session_, PERF_TYPE_TRACEPOINT, tracepoint_), ZX_OK);
  }
  void TearDown() override {
    if (session_ != ZX_HANDLE_INVALID) zx_handle_close(session_);
    pmapi::SetKernelForTesting(nullptr);
  }
  int SamplingOpens() {
    std::lock_guard<std::mutex> lock(mutex_);
    return sampling_opens_;
  }

  uint64_t tracepoint_ = 0;
  pmapi_test::FakeKernel kernel_;
  zx_handle_t session_ = ZX_HANDLE_INVALID;
  std::mutex mutex_;
  int sampling_opens_ = 0;
};

TEST_F(AttachOnce, AThreadAttachedTwiceHasItsEventsOpenedOnceAndEachSampleTakenOnce) {
  const zx_handle_t self = static_cast<zx_handle_t>(Tid());
  ASSERT_EQ(zx_sampler_attach(session_, self), ZX_OK) << zx_sampler_last_error();
  const int opened = SamplingOpens();
  ASSERT_GT(opened, 0);
  ASSERT_EQ(zx_sampler_attach(session_, self), ZX_OK) << zx_sampler_last_error();
  EXPECT_EQ(SamplingOpens(), opened) << "the second attach opened events again";
  zx_sampler_info_t info{};
  ASSERT_EQ(zx_sampler_get_info(session_, &info), ZX_OK);
  EXPECT_EQ(info.attached_threads, 1u);
  ASSERT_EQ(zx_sampler_start(session_), ZX_OK);
  CallGetppidFor(10);
  ASSERT_EQ(zx_sampler_stop(session_), ZX_OK);
  EXPECT_EQ(SamplesOf(session_, Tid()), 10);
}

TEST_F(AttachOnce, AThreadThatInheritedItsCreatorsEventAndIsAttachedTooIsSampledOnce) {
  // This thread is attached with its descendants; the thread it creates then inherits its
  // event, and is attached as well (as pmsample -p attaches every thread it finds).
  ASSERT_EQ(zx_sampler_attach_etc(session_, static_cast<zx_handle_t>(Tid()),
                                  ZX_SAMPLER_ATTACH_DESCENDANTS),
            ZX_OK)
      << zx_sampler_last_error();
  std::atomic<pid_t> created{0};
  std::atomic<bool> go{false};
  std::thread thread([&] {
    created = Tid();
    while (!go) sched_yield();
    CallGetppidFor(10);
  });
  while (created == 0) sched_yield();
  ASSERT_EQ(zx_sampler_attach_etc(session_, static_cast<zx_handle_t>(created.load()),
                                  ZX_SAMPLER_ATTACH_DESCENDANTS),
            ZX_OK)
      << zx_sampler_last_error();
  ASSERT_EQ(zx_sampler_start(session_), ZX_OK);
  go = true;
  thread.join();
  CallGetppidFor(4);  // its creator's, taken by its creator's own event
  ASSERT_EQ(zx_sampler_stop(session_), ZX_OK);
  EXPECT_EQ(SamplesOf(session_, created), 10);
  EXPECT_EQ(SamplesOf(session_, Tid()), 4);
}

// The unwinder's reads of the stack copy: every whole word inside it, nothing that reaches
// past its end, nothing below the stack pointer it starts at.
TEST(DwarfUnwinderStack, ReadsEveryWordOfTheCopyAndNothingPastIt) {
  const uint64_t sp = 0x7ffd0000;
  uint64_t words[4] = {11, 22, 33, 44};
  zx_sampler::DwarfRegisters registers{};
  registers.sp = sp;
  zx_sampler::DwarfUnwinder::Current current;
  current.registers = &registers;
  current.stack = reinterpret_cast<const uint8_t*>(words);
  for (size_t size : {size_t{32}, size_t{24}, size_t{12}, size_t{8}, size_t{0}}) {
    current.stack_size = size;
    uint64_t word = 0;
    for (uint64_t at = 0; at + 8 <= size; at += 8) {
      ASSERT_TRUE(zx_sampler::DwarfUnwinder::ReadStackWord(current, sp + at, &word))
          << size << " " << at;
      EXPECT_EQ(word, words[at / 8]);
    }
    // The stack cut where the next read falls: it ends there, whatever its bytes would be.
    for (uint64_t at = size >= 7 ? size - 7 : 0; at <= size + 8; ++at) {
      if (at + 8 <= size) continue;
      EXPECT_FALSE(zx_sampler::DwarfUnwinder::ReadStackWord(current, sp + at, &word))
          << "a read at +" << at << " of a " << size << "-byte copy";
    }
    EXPECT_FALSE(zx_sampler::DwarfUnwinder::ReadStackWord(current, sp - 8, &word));
    EXPECT_FALSE(zx_sampler::DwarfUnwinder::ReadStackWord(current, sp - 1, &word));
  }
}

}  // namespace
