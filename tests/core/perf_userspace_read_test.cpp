// SPDX-License-Identifier: MIT
// User-space counter reads (CounterGroup with perf pages, perf_page_read.h),
// through the kernel seam: fake pages stand for the kernel's, ReadPmc and
// ReadTimestamp for rdpmc and rdtsc. Checked: the counts and times the
// protocol gives (pmc_width sign extension, the time delta, scaling), a
// writer changing the page mid-read, every reason to fall back to read(2),
// when pages are mapped at all, and that no path allocates. The real
// kernel's fallback is checked with its own pages and through the C API.
#include <gtest/gtest.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <functional>
#include <new>
#include <thread>

#include "base/kernel.h"
#include "base/settings.h"
#include "core/counter_group.h"
#include "core/program.h"
#include "support/counting.h"
#include "support/fake_kernel.h"

#include "support/allocation_counter.h"
#include "support/perf_attr.h"

#if defined(__SANITIZE_THREAD__)
#define PMAPI_THREAD_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define PMAPI_THREAD_SANITIZER 1
#endif
#endif

using namespace pmapi_test;

namespace {

constexpr uint64_t kCapRdpmc = 1ull << 2;
constexpr uint64_t kCapTime = 1ull << 3;

struct alignas(4096) FakePage {
  perf_event_mmap_page page;
};

// Hardware events become real task-clock events (so read(2) works and says
// something the pages do not), mapped to fake pages unless real_pages.
class PageKernel : public FakeKernel {
 public:
  int PerfEventOpen(const perf_event_attr &attr, pid_t pid, int cpu, int group_fd) override {
    perf_event_attr soft = attr;
    if (attr.type == PERF_TYPE_HARDWARE) {
      soft.type = PERF_TYPE_SOFTWARE;
      soft.config = PERF_COUNT_SW_TASK_CLOCK;
    }
    return FakeKernel::PerfEventOpen(soft, pid, cpu, group_fd);
  }
  int MapPerfPage(int fd, const perf_event_mmap_page **page) override {
    ++maps;
    if (real_pages) return FakeKernel::MapPerfPage(fd, page);
    if (maps > 2) return -ENOMEM;
    *page = &pages[maps - 1].page;
    return 0;
  }
  void UnmapPerfPage(const perf_event_mmap_page *page) override {
    ++unmaps;
    if (real_pages) FakeKernel::UnmapPerfPage(page);
  }
  uint64_t ReadPmc(uint32_t counter) override {
    ++pmc_reads;
    if (on_pmc) on_pmc(counter);
    return counter < 2 ? hardware[counter].load() : 0;
  }
  uint64_t ReadTimestamp() override { return timestamp; }

  FakePage pages[2] = {};
  std::atomic<uint64_t> hardware[2] = {};  // what rdpmc of counter 0 and 1 gives
  uint64_t timestamp = 0;
  std::function<void(uint32_t)> on_pmc;
  bool real_pages = false;
  int maps = 0, unmaps = 0, pmc_reads = 0;
};

perf_event_attr Hardware(uint64_t config) {
  return pmapi_test::UserModeAttr(PERF_TYPE_HARDWARE, config, false);
}

pmapi::GroupTarget CallingThread() {
  pmapi::GroupTarget target;
  target.pid = static_cast<pid_t>(syscall(SYS_gettid));
  target.description = "the calling thread";
  return target;
}

// Both events on counters, rdpmc and time allowed; count = offset + pmc.
void Running(perf_event_mmap_page *page, uint32_t index, int64_t offset) {
  page->lock = 2;
  page->index = index;
  page->offset = offset;
  page->capabilities = kCapRdpmc | kCapTime;
  page->pmc_width = 48;
  page->time_enabled = 1000;
  page->time_running = 1000;
  page->time_offset = 20;
  page->time_mult = 3;
  page->time_shift = 1;
}

class UserSpaceRead : public ::testing::Test {
 protected:
  void SetUp() override {
    Running(&kernel_.pages[0].page, 1, 100);
    Running(&kernel_.pages[1].page, 2, 5000);
    kernel_.hardware[0] = 23;
    kernel_.hardware[1] = 7;
    kernel_.timestamp = 11;  // delta = 20 + (11 >> 1) * 3 + ((11 & 1) * 3 >> 1) = 36 ns
    program_ = pmapi::Program()
                   .WithLibraryEvent("cycles", Hardware(PERF_COUNT_HW_CPU_CYCLES))
                   .WithLibraryEvent("instructions", Hardware(PERF_COUNT_HW_INSTRUCTIONS));
  }

  void Open() {
    ASSERT_TRUE(group_.Open(program_, CallingThread()).ok());
    ASSERT_TRUE(group_.Enable().ok());
  }

  PageKernel kernel_;
  ScopedKernel scoped_{&kernel_};
  pmapi::Program program_;
  pmapi::CounterGroup group_;
};

TEST_F(UserSpaceRead, ReadsCountsAndTimesFromThePagesWithoutASyscall) {
  Open();
  ASSERT_TRUE(group_.has_pages());
  const int reads = kernel_.Calls(FakeKernel::Op::kRead);
  pmapi::GroupReading reading;
  ASSERT_TRUE(group_.Read(&reading).ok());
  EXPECT_EQ(kernel_.Calls(FakeKernel::Op::kRead), reads) << "no read(2)";
  EXPECT_EQ(reading.values[0], 123u);
  EXPECT_EQ(reading.values[1], 5007u);
  EXPECT_EQ(reading.time_enabled, 1036u) << "the page's time plus the timestamp's delta";
  EXPECT_EQ(reading.time_running, 1036u);
  EXPECT_EQ(group_.page_reads(), 1u);
  EXPECT_EQ(group_.page_fallbacks(), 0u);
  group_.Close();
  EXPECT_EQ(kernel_.unmaps, 2) << "every page unmapped";
}

TEST_F(UserSpaceRead, ScalingTimesComeFromTheLeadersPage) {
  kernel_.pages[0].page.time_running = 400;  // counted 400 of 1000 ns so far
  Open();
  pmapi::GroupReading reading;
  ASSERT_TRUE(group_.Read(&reading).ok());
  EXPECT_EQ(reading.time_enabled, 1036u);
  EXPECT_EQ(reading.time_running, 436u) << "running now, so the delta adds to both";
}

TEST_F(UserSpaceRead, CounterWrapsAtPmcWidth) {
  // A 48-bit counter the kernel started at -16 and that has counted 40: raw
  // value 2^48 - 16 + 40. Sign-extended it is 24; read as unsigned it would
  // add 2^48 to the count.
  kernel_.hardware[0] = (uint64_t{1} << 48) - 16 + 40;
  kernel_.pages[0].page.offset = 1000;
  // Garbage above the counter's width is ignored.
  kernel_.hardware[1] = (uint64_t{0xABCD} << 48) | 9;
  Open();
  pmapi::GroupReading reading;
  ASSERT_TRUE(group_.Read(&reading).ok());
  EXPECT_EQ(reading.values[0], 1024u);
  EXPECT_EQ(reading.values[1], 5009u);
  kernel_.hardware[0] = (uint64_t{1} << 48) - 3;  // still below zero: -3
  ASSERT_TRUE(group_.Read(&reading).ok());
  EXPECT_EQ(reading.values[0], 997u);
}

TEST_F(UserSpaceRead, AWriterBumpingTheLockMidReadMakesTheReadStartOver) {
  Open();
  perf_event_mmap_page &page = kernel_.pages[0].page;
  bool written = false;
  kernel_.on_pmc = [&](uint32_t counter) {
    if (counter != 0 || written) return;
    written = true;
    // The kernel's update in an interrupt between the reader's loads: the
    // offset and the counter change together, and the lock moves on.
    page.lock = page.lock + 1;
    page.offset = 200;
    kernel_.hardware[0] = 50;
    page.lock = page.lock + 1;
  };
  const int before = kernel_.pmc_reads;
  pmapi::GroupReading reading;
  ASSERT_TRUE(group_.Read(&reading).ok());
  EXPECT_EQ(reading.values[0], 250u) << "not 100 + 50 or 200 + 23: a torn read";
  EXPECT_EQ(kernel_.pmc_reads - before, 3) << "the leader twice, the member once";
}

TEST_F(UserSpaceRead, AConcurrentWriterNeverGivesATornCount) {
#ifdef PMAPI_THREAD_SANITIZER
  GTEST_SKIP() << "the fake page is shared without atomics on purpose, as the kernel's is";
#endif
  Open();
  perf_event_mmap_page &page = kernel_.pages[0].page;
  constexpr int64_t kTotal = 1'000'000;
  page.offset = kTotal - 23;
  std::atomic<bool> stop{false};
  std::thread writer([&] {
    for (uint64_t v = 0; !stop.load(std::memory_order_relaxed); v = (v + 7919) % 100000) {
      volatile perf_event_mmap_page *p = &page;
      p->lock = p->lock + 1;  // odd: mid-update
      std::atomic_thread_fence(std::memory_order_seq_cst);
      p->offset = kTotal - static_cast<int64_t>(v);
      kernel_.hardware[0].store(v, std::memory_order_relaxed);
      std::atomic_thread_fence(std::memory_order_seq_cst);
      p->lock = p->lock + 1;
      // A pause now and then, so that some reads fit between updates.
      for (volatile int i = 0; i < static_cast<int>(v % 200); i = i + 1) {
      }
    }
  });
  int torn = 0;
  for (int i = 0; i < 200000; ++i) {
    const uint64_t before = group_.page_reads();
    pmapi::GroupReading reading;
    ASSERT_TRUE(group_.Read(&reading).ok());
    // Reads the writer kept busy fall back to read(2) (task-clock here): only
    // the page reads must be whole.
    if (group_.page_reads() > before && reading.values[0] != kTotal) ++torn;
  }
  stop = true;
  writer.join();
  EXPECT_EQ(torn, 0);
  EXPECT_GT(group_.page_reads(), 0u);
}

TEST_F(UserSpaceRead, IndexZeroFallsBackToRead) {
  kernel_.pages[1].page.index = 0;  // the member is not on a counter now
  Open();
  const int reads = kernel_.Calls(FakeKernel::Op::kRead);
  pmapi::GroupReading reading;
  ASSERT_TRUE(group_.Read(&reading).ok());
  EXPECT_EQ(kernel_.Calls(FakeKernel::Op::kRead), reads + 1);
  EXPECT_NE(reading.values[0], 123u) << "the kernel's task-clock count, not the page's";
  EXPECT_GT(reading.time_enabled, 0u);
  EXPECT_EQ(group_.page_fallbacks(), 1u);
  EXPECT_EQ(group_.page_reads(), 0u);
}

TEST_F(UserSpaceRead, NoRdpmcOrNoTimeFallsBackToRead) {
  Open();
  pmapi::GroupReading reading;
  kernel_.pages[1].page.capabilities = kCapTime;  // a member the process may not rdpmc
  ASSERT_TRUE(group_.Read(&reading).ok());
  kernel_.pages[1].page.capabilities = kCapRdpmc | kCapTime;
  kernel_.pages[0].page.capabilities = kCapRdpmc;  // a leader without usable times
  ASSERT_TRUE(group_.Read(&reading).ok());
  EXPECT_EQ(group_.page_fallbacks(), 2u);
  kernel_.pages[0].page.capabilities = kCapRdpmc | kCapTime;
  ASSERT_TRUE(group_.Read(&reading).ok());
  EXPECT_EQ(group_.page_reads(), 1u) << "and back on the pages";
}

TEST_F(UserSpaceRead, ALockThatNeverSettlesFallsBackInsteadOfSpinning) {
  Open();
  perf_event_mmap_page &page = kernel_.pages[0].page;
  kernel_.on_pmc = [&](uint32_t) { page.lock = page.lock + 2; };
  pmapi::GroupReading reading;
  ASSERT_TRUE(group_.Read(&reading).ok());
  EXPECT_EQ(group_.page_fallbacks(), 1u);
  page.lock = 1;  // odd forever: a writer that died mid-update
  kernel_.on_pmc = nullptr;
  ASSERT_TRUE(group_.Read(&reading).ok());
  EXPECT_EQ(group_.page_fallbacks(), 2u);
}

TEST_F(UserSpaceRead, AnotherThreadsReadUsesTheSyscall) {
  Open();
  const int reads = kernel_.Calls(FakeKernel::Op::kRead);
  bool ok = false;
  // rdpmc there would read that thread's CPU, not the counted thread's.
  std::thread([&] {
    pmapi::GroupReading reading;
    ok = group_.Read(&reading).ok();
  }).join();
  EXPECT_TRUE(ok);
  EXPECT_EQ(kernel_.Calls(FakeKernel::Op::kRead), reads + 1);
  EXPECT_EQ(group_.page_reads() + group_.page_fallbacks(), 0u);
}

TEST_F(UserSpaceRead, NoPathAllocates) {
  if (!kCountsAllocations) {
    GTEST_SKIP() << "the sanitizer runtime owns malloc here, so allocations cannot be counted";
  }
  kernel_.real_pages = false;
  Open();
  pmapi::GroupReading reading;
  pmapi::Status status;
  // The double's own bookkeeping allocates on its first read(2): warm it up.
  kernel_.pages[0].page.index = 0;
  ASSERT_TRUE(group_.Read(&reading).ok());
  kernel_.pages[0].page.index = 1;
  EXPECT_EQ(AllocationsIn([&] { status = group_.Read(&reading); }), 0) << "page path";
  EXPECT_EQ(group_.page_reads(), 1u);
  EXPECT_TRUE(status.ok());
  kernel_.pages[0].page.index = 0;
  EXPECT_EQ(AllocationsIn([&] { status = group_.Read(&reading); }), 0) << "read(2) fallback";
  EXPECT_TRUE(status.ok());
  kernel_.FailWith(FakeKernel::Op::kRead, EIO);
  EXPECT_EQ(AllocationsIn([&] { status = group_.Read(&reading); }), 0) << "error";
  EXPECT_FALSE(status.ok());
  int *volatile kept = nullptr;
  EXPECT_GT(AllocationsIn([&] { kept = new int(1); }), 0) << "the counter counts";
  delete kept;
}

TEST_F(UserSpaceRead, PagesAreMappedOnlyForTheCallingThreadsHardwareEvents) {
  pmapi::GroupTarget inherited = CallingThread();
  inherited.inherit = true;  // children's counts only read(2) sums
  ASSERT_TRUE(group_.Open(program_, inherited).ok());
  EXPECT_FALSE(group_.has_pages());
  pmapi::GroupTarget other = CallingThread();
  other.pid = getpid() == other.pid ? 1 : getpid();
  if (group_.Open(program_, other).ok()) {
    EXPECT_FALSE(group_.has_pages());
  }
  perf_event_attr clock{};
  clock.size = sizeof clock;
  clock.type = PERF_TYPE_SOFTWARE;
  clock.config = PERF_COUNT_SW_TASK_CLOCK;
  ASSERT_TRUE(group_.Open(program_.WithLibraryEvent("task-clock", clock), CallingThread()).ok());
  EXPECT_FALSE(group_.has_pages()) << "a software event is never on a counter";
  pmapi::SetSetting("PMAPI_NO_USERSPACE_READ", "1");
  ASSERT_TRUE(group_.Open(program_, CallingThread()).ok());
  pmapi::SetSetting("PMAPI_NO_USERSPACE_READ", "");
  EXPECT_FALSE(group_.has_pages()) << "turned off";
  EXPECT_EQ(kernel_.maps, 0);
}

TEST_F(UserSpaceRead, AFailedMapLeavesTheSyscall) {
  program_ = program_.WithLibraryEvent("branches", Hardware(PERF_COUNT_HW_BRANCH_INSTRUCTIONS));
  ASSERT_TRUE(group_.Open(program_, CallingThread()).ok());  // the third map fails
  EXPECT_FALSE(group_.has_pages());
  EXPECT_EQ(kernel_.unmaps, 2) << "the two mapped were unmapped";
  pmapi::GroupReading reading;
  ASSERT_TRUE(group_.Enable().ok());
  EXPECT_TRUE(group_.Read(&reading).ok());
}

// The real kernel's own pages: a task-clock event stands in for the
// hardware one, and its page says it is not on a counter.
TEST_F(UserSpaceRead, RealPagesOfEventsOffCountersFallBack) {
  kernel_.real_pages = true;
  Open();
  ASSERT_TRUE(group_.has_pages()) << "the kernel maps a counting event's page";
  pmapi::GroupReading first, second;
  ASSERT_TRUE(group_.Read(&first).ok());
  for (volatile int i = 0; i < 1000000; i = i + 1) {
  }
  ASSERT_TRUE(group_.Read(&second).ok());
  EXPECT_GT(second.values[0], first.values[0]) << "task-clock ns from read(2)";
  EXPECT_EQ(group_.page_fallbacks(), 2u);
  EXPECT_EQ(group_.page_reads(), 0u);
  EXPECT_EQ(kernel_.pmc_reads, 0) << "no rdpmc where the page does not allow it";
  group_.Close();
  EXPECT_EQ(kernel_.unmaps, 2);
}

// Through the C API on this machine: tracepoints and software events are
// never mapped, and counts stay exact.
TEST(UserSpaceReadApi, MyThreadCountsStayExactWithoutPages) {
  ASSERT_TRUE(InitializeAll());
  FakeKernel kernel;
  ScopedKernel scoped(&kernel);
  pm_prog_t prog = MakeProgram({EventId(kGetppid), EventId("task-clock")}, PM_USER | PM_KERNEL);
  ASSERT_EQ(pm_set_program_mythread(&prog), 0) << pm_strerror("set", 0);
  ASSERT_EQ(pm_start_mythread(), 0);
  CallGetppid(321);
  const int reads = kernel.Calls(FakeKernel::Op::kRead);
  pm_data_t data;
  ASSERT_EQ(pm_get_data_mythread(&data), 0);
  EXPECT_EQ(data.accu[0], 321);
  EXPECT_EQ(kernel.Calls(FakeKernel::Op::kRead), reads + 1) << "one read(2)";
  EXPECT_EQ(pm_delete_program_mythread(), 0);
}

}  // namespace
