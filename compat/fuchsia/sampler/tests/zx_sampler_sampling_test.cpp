// SPDX-License-Identifier: MIT
// Samples themselves: how many (against the thread's own CPU time, so a loaded machine does
// not matter), whose, with which stacks, in records that parse; a full region; a thread that
// exits; a restart that appends. Built with frame pointers; the hot functions never inline.
#include <gtest/gtest.h>
#include <pthread.h>

#include <atomic>
#include <map>
#include <set>
#include <string>
#include <thread>

#include "sampler_test_support.h"
#include "zircon/sampler-linux.h"

using sampler_test::ReadRegions;
using sampler_test::RegionContents;
using sampler_test::SampleCopy;

namespace {

std::atomic<uint64_t> g_sink{0};

#define HOT_FUNCTION(name)                                                \
  extern "C" __attribute__((noinline)) void name(int64_t cpu_ns) {        \
    int64_t end = sampler_test::ThreadCpuNs() + cpu_ns;                   \
    uint64_t x = 1;                                                       \
    while (sampler_test::ThreadCpuNs() < end)                             \
      for (int i = 0; i < 20000; ++i) x = x * 6364136223846793005ull + 1; \
    g_sink += x;                                                          \
  }
HOT_FUNCTION(SamplerHotMain)
HOT_FUNCTION(SamplerHotA)
HOT_FUNCTION(SamplerHotB)
HOT_FUNCTION(SamplerHotExiting)

// A caller of its own for the DWARF test: its frame is what the unwinding must find.
extern "C" __attribute__((noinline)) void SamplerDwarfCaller(int64_t cpu_ns) {
  SamplerHotMain(cpu_ns);
  g_sink += 1;  // after the call: no tail call
}

constexpr int64_t kPeriod = 100000;  // 100 us

zx_handle_t Create(size_t buffer = 8 << 20) {
  zx_sampler_config_t config{};
  config.period = kPeriod;
  config.buffer_size = buffer;
  zx_handle_t h = ZX_HANDLE_INVALID;
  EXPECT_EQ(zx_sampler_create(0, 0, &config, &h), ZX_OK) << zx_sampler_last_error();
  return h;
}

zx_handle_t Self() { return static_cast<zx_handle_t>(sampler_test::Tid()); }

fuchsia_common::Symbolizer& Symbols() {
  static fuchsia_common::Symbolizer* symbols = [] {
    auto* s = new fuchsia_common::Symbolizer;
    std::string error;
    s->AddProcess(getpid(), &error);
    return s;
  }();
  return *symbols;
}

size_t CountFor(const RegionContents& c, uint64_t tid) {
  size_t n = 0;
  for (const SampleCopy& s : c.samples) n += s.tid == tid;
  return n;
}

TEST(ZxSamplerSampling, TheSampleCountFollowsTheThreadsCpuTimeAndShowsTheHotFunction) {
  zx_handle_t h = Create();
  ASSERT_EQ(zx_sampler_attach(h, Self()), ZX_OK) << zx_sampler_last_error();
  ASSERT_EQ(zx_sampler_start(h), ZX_OK);
  int64_t before = sampler_test::ThreadCpuNs();
  zx_ticks_t first_tick = zx_ticks_get();
  SamplerHotMain(300000000);
  int64_t cpu = sampler_test::ThreadCpuNs() - before;
  ASSERT_EQ(zx_sampler_stop(h), ZX_OK);
  zx_ticks_t last_tick = zx_ticks_get();
  RegionContents c = ReadRegions(h);
  EXPECT_TRUE(c.errors.empty()) << c.errors[0];
  size_t mine = CountFor(c, static_cast<uint64_t>(sampler_test::Tid()));
  double expected = static_cast<double>(cpu) / kPeriod;
  EXPECT_GE(mine, 0.75 * expected) << "cpu " << cpu << " ns";
  EXPECT_LE(mine, 1.25 * expected) << "cpu " << cpu << " ns";
  size_t hot = 0;
  for (const SampleCopy& s : c.samples) {
    EXPECT_EQ(s.pid, static_cast<uint64_t>(getpid()));
    EXPECT_GE(s.ticks, static_cast<uint64_t>(first_tick));
    EXPECT_LE(s.ticks, static_cast<uint64_t>(last_tick));
    EXPECT_LE(s.pcs.size(), static_cast<size_t>(ZX_SAMPLER_MAX_FRAMES));
    hot += sampler_test::StackHas(Symbols(), s, "SamplerHotMain");
  }
  EXPECT_GE(hot, 0.9 * static_cast<double>(c.samples.size())) << hot << " of " << c.samples.size();
  zx_sampler_info_t info;
  ASSERT_EQ(zx_sampler_get_info(h, &info), ZX_OK);
  EXPECT_EQ(info.samples_written, c.samples.size());
  EXPECT_EQ(info.full_regions, 0u);
  EXPECT_EQ(zx_handle_close(h), ZX_OK);
}

TEST(ZxSamplerSampling, EachSamplesThreadMatchesTheFunctionItShows) {
  zx_handle_t h = Create();
  std::atomic<pid_t> tid_a{0}, tid_b{0};
  std::atomic<int> go{0};
  auto body = [&](std::atomic<pid_t>* tid, void (*hot)(int64_t)) {
    *tid = sampler_test::Tid();
    while (!go.load()) std::this_thread::yield();
    hot(150000000);
  };
  std::thread a(body, &tid_a, &SamplerHotA), b(body, &tid_b, &SamplerHotB);
  while (!tid_a.load() || !tid_b.load()) std::this_thread::yield();
  ASSERT_EQ(zx_sampler_attach(h, static_cast<zx_handle_t>(tid_a.load())), ZX_OK);
  ASSERT_EQ(zx_sampler_attach(h, static_cast<zx_handle_t>(tid_b.load())), ZX_OK);
  ASSERT_EQ(zx_sampler_start(h), ZX_OK);
  go = 1;
  a.join();
  b.join();
  ASSERT_EQ(zx_sampler_stop(h), ZX_OK);
  RegionContents c = ReadRegions(h);
  EXPECT_TRUE(c.errors.empty()) << c.errors[0];
  size_t in_a = 0, in_b = 0;
  for (const SampleCopy& s : c.samples) {
    bool shows_a = sampler_test::StackHas(Symbols(), s, "SamplerHotA");
    bool shows_b = sampler_test::StackHas(Symbols(), s, "SamplerHotB");
    if (shows_a) {
      ++in_a;
      EXPECT_EQ(s.tid, static_cast<uint64_t>(tid_a.load()));
    }
    if (shows_b) {
      ++in_b;
      EXPECT_EQ(s.tid, static_cast<uint64_t>(tid_b.load()));
    }
  }
  // 150 ms of CPU each at 100 us: about 1,500 samples; far more than 100 whatever the load.
  EXPECT_GT(in_a, 100u);
  EXPECT_GT(in_b, 100u);
  EXPECT_EQ(zx_handle_close(h), ZX_OK);
}

TEST(ZxSamplerSampling, EveryRecordParsesAndNamesARealThreadOfThisProcess) {
  zx_handle_t h = Create();
  std::atomic<pid_t> worker{0};
  std::thread t([&] {
    worker = sampler_test::Tid();
    SamplerHotA(100000000);
  });
  while (!worker.load()) std::this_thread::yield();
  ASSERT_EQ(zx_sampler_start(h), ZX_OK);  // attach during the session, too
  ASSERT_EQ(zx_sampler_attach(h, Self()), ZX_OK);
  ASSERT_EQ(zx_sampler_attach(h, static_cast<zx_handle_t>(worker.load())), ZX_OK);
  SamplerHotMain(100000000);
  t.join();
  ASSERT_EQ(zx_sampler_stop(h), ZX_OK);
  RegionContents c = ReadRegions(h);
  ASSERT_TRUE(c.errors.empty()) << c.errors[0];
  std::set<uint64_t> tids = {static_cast<uint64_t>(sampler_test::Tid()),
                             static_cast<uint64_t>(worker.load())};
  std::set<uint64_t> seen;
  for (const SampleCopy& s : c.samples) {
    EXPECT_TRUE(tids.count(s.tid)) << s.tid;
    EXPECT_GT(s.pcs.size(), 0u);
    seen.insert(s.tid);
  }
  EXPECT_EQ(seen.size(), 2u);
  // Records are 8-byte multiples and each region's used bytes are followed by zero.
  for (const auto& bytes : c.bytes) EXPECT_EQ(bytes.size() % 8, 0u);
  EXPECT_EQ(zx_handle_close(h), ZX_OK);
}

TEST(ZxSamplerSampling, AFullRegionHoldsWholeRecordsThenZeroAndSaysSo) {
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  zx_handle_t h = Create(page);
  ASSERT_EQ(zx_sampler_attach(h, Self()), ZX_OK);
  ASSERT_EQ(zx_sampler_start(h), ZX_OK);
  SamplerHotMain(100000000);  // ~1,000 samples of ~100 bytes: far more than a page
  ASSERT_EQ(zx_sampler_stop(h), ZX_OK);
  RegionContents c = ReadRegions(h);
  ASSERT_TRUE(c.errors.empty()) << c.errors[0];
  zx_sampler_info_t info;
  ASSERT_EQ(zx_sampler_get_info(h, &info), ZX_OK);
  EXPECT_NE(info.full_regions, 0u);
  EXPECT_GT(info.samples_dropped, 0u);
  EXPECT_EQ(info.samples_written, c.samples.size());
  for (size_t i = 0; i < c.bytes.size(); ++i) {
    EXPECT_LE(c.bytes[i].size() + 8, page);
    if (info.full_regions & (1ull << i)) {
      // Full: a record of at most 64 PCs and its zero word did not fit after the last one.
      EXPECT_GT(c.bytes[i].size() + 8 * (6 + ZX_SAMPLER_MAX_FRAMES + 1), page) << i;
    }
  }
  EXPECT_EQ(zx_handle_close(h), ZX_OK);
}

TEST(ZxSamplerSampling, AThreadThatExitsMidSessionKeepsItsSamples) {
  zx_handle_t h = Create();
  std::atomic<pid_t> tid{0};
  std::atomic<int> go{0};
  std::thread t([&] {
    tid = sampler_test::Tid();
    while (!go.load()) std::this_thread::yield();
    SamplerHotExiting(50000000);
  });
  while (!tid.load()) std::this_thread::yield();
  ASSERT_EQ(zx_sampler_attach(h, static_cast<zx_handle_t>(tid.load())), ZX_OK);
  ASSERT_EQ(zx_sampler_attach(h, Self()), ZX_OK);
  ASSERT_EQ(zx_sampler_start(h), ZX_OK);
  go = 1;
  t.join();
  SamplerHotMain(20000000);  // the session goes on after the thread is gone
  ASSERT_EQ(zx_sampler_stop(h), ZX_OK);
  RegionContents c = ReadRegions(h);
  ASSERT_TRUE(c.errors.empty()) << c.errors[0];
  EXPECT_GT(CountFor(c, static_cast<uint64_t>(tid.load())), 100u);
  EXPECT_EQ(zx_handle_close(h), ZX_OK);
}

TEST(ZxSamplerSampling, ARestartAfterStopAppends) {
  zx_handle_t h = Create();
  ASSERT_EQ(zx_sampler_attach(h, Self()), ZX_OK);
  ASSERT_EQ(zx_sampler_start(h), ZX_OK);
  SamplerHotMain(30000000);
  ASSERT_EQ(zx_sampler_stop(h), ZX_OK);
  RegionContents first = ReadRegions(h);
  ASSERT_TRUE(first.errors.empty()) << first.errors[0];
  SamplerHotMain(10000000);  // stopped: not sampled
  RegionContents still = ReadRegions(h);
  EXPECT_EQ(still.samples.size(), first.samples.size());
  ASSERT_EQ(zx_sampler_start(h), ZX_OK);
  SamplerHotMain(30000000);
  ASSERT_EQ(zx_sampler_stop(h), ZX_OK);
  RegionContents second = ReadRegions(h);
  ASSERT_TRUE(second.errors.empty()) << second.errors[0];
  EXPECT_GT(second.samples.size(), first.samples.size() + 100);
  for (size_t i = 0; i < first.bytes.size(); ++i) {
    ASSERT_GE(second.bytes[i].size(), first.bytes[i].size());
    EXPECT_TRUE(std::equal(first.bytes[i].begin(), first.bytes[i].end(), second.bytes[i].begin()))
        << "region " << i << " was rewritten, not appended to";
  }
  EXPECT_EQ(zx_handle_close(h), ZX_OK);
}

TEST(ZxSamplerSampling, DwarfUnwindingOfARunningProcessParsesAndFindsTheCaller) {
#if !defined(__x86_64__) && !defined(__aarch64__)
  GTEST_SKIP() << "DWARF unwinding is x86-64 and aarch64 only";
#endif
  // This process was running before the session: its mappings come from /proc/PID/maps (no
  // mmap record of them), and each record carries registers and a stack copy besides the
  // callchain, which the drainer must step over to write the usual records.
  zx_handle_t h = Create();
  ASSERT_EQ(zx_sampler_set_unwind(h, ZX_SAMPLER_UNWIND_DWARF, 0), ZX_OK) << zx_sampler_last_error();
  ASSERT_EQ(zx_sampler_attach(h, Self()), ZX_OK) << zx_sampler_last_error();
  ASSERT_EQ(zx_sampler_start(h), ZX_OK);
  SamplerDwarfCaller(200000000);
  ASSERT_EQ(zx_sampler_stop(h), ZX_OK);
  RegionContents c = ReadRegions(h);
  EXPECT_TRUE(c.errors.empty()) << c.errors[0];
  size_t hot = 0, with_caller = 0;
  for (const SampleCopy& s : c.samples) {
    if (!sampler_test::StackHas(Symbols(), s, "SamplerHotMain")) continue;
    ++hot;
    with_caller += sampler_test::StackHas(Symbols(), s, "SamplerDwarfCaller");
  }
  EXPECT_GT(hot, 100u);
  EXPECT_GE(with_caller * 10, hot * 9) << with_caller << " of " << hot;
  EXPECT_EQ(zx_handle_close(h), ZX_OK);
}

}  // namespace
