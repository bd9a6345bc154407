// SPDX-License-Identifier: MIT
// The user-space read against read(2): src/base/perf_page_read.h, the code
// CounterGroup runs for a _mythread group of hardware events, on fake pages
// that say "on a counter, rdpmc and time allowed". rdtsc is the machine's;
// rdpmc returns a constant (this VM has no PMU, so it would fault): on real
// hardware add its cost, tens of cycles per event. The peer row is
// BM_ReadN_Raw/N, one PERF_FORMAT_GROUP read(2) of N software events.
#include <benchmark/benchmark.h>
#include <linux/perf_event.h>
#include <stdint.h>

#include "../../src/base/perf_page_read.h"

namespace {

struct alignas(4096) Page {
  perf_event_mmap_page page;
};

struct FakeInstructions {
  uint64_t ReadPmc(uint32_t counter) { return 1000 + counter; }
  uint64_t ReadTimestamp() {
#if defined(__x86_64__) || defined(__i386__)
    uint32_t low, high;
    asm volatile("rdtsc" : "=a"(low), "=d"(high));
    return (static_cast<uint64_t>(high) << 32) | low;
#else
    return 0;
#endif
  }
};

void BM_PageRead_Fake(benchmark::State &state) {
  const int n = static_cast<int>(state.range(0));
  static Page pages[8];
  for (int i = 0; i < n; ++i) {
    perf_event_mmap_page &page = pages[i].page;
    page.lock = 2;
    page.index = static_cast<uint32_t>(i + 1);
    page.offset = 100;
    page.capabilities = (1ull << 2) | (1ull << 3);
    page.pmc_width = 48;
    page.time_mult = 1 << 20;
    page.time_shift = 21;
  }
  FakeInstructions instructions;
  uint64_t values[8];
  for (auto _ : state) {
    for (int i = 0; i < n; ++i) {
      pmapi::PageCount count;
      if (pmapi::ReadPerfPage(&pages[i].page, instructions, i == 0, &count) !=
          pmapi::PageRead::kOk) {
        return state.SkipWithError("the fake page was refused");
      }
      values[i] = count.count;
    }
    benchmark::DoNotOptimize(values);
  }
}
BENCHMARK(BM_PageRead_Fake)->Arg(1)->Arg(4)->Arg(8);

}  // namespace
