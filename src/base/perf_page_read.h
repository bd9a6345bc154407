/* SPDX-License-Identifier: MIT */
// Reading a perf event's count from its mapped page (struct
// perf_event_mmap_page) without a system call, with the protocol the kernel
// documents in <linux/perf_event.h>: a sequence lock around index, offset,
// the times and the counter itself.
//
// Header-only and free of library state so that the benchmark times the very
// code the library runs (tests/bench/perf_page_bench.cpp). `Instructions`
// supplies the two machine reads: ReadPmc(counter) (rdpmc) and
// ReadTimestamp() (rdtsc); the library passes them through the kernel seam so
// that tests can fake both with the page.
#pragma once

#include <linux/perf_event.h>
#include <stdint.h>

namespace pmapi {

// What one read of a page gives, all brought up to the moment of the read.
struct PageCount {
  uint64_t count = 0;
  uint64_t time_enabled = 0;  // ns
  uint64_t time_running = 0;  // ns
};

enum class PageRead {
  kOk,
  kNotRunning,  // index 0: not on a counter now (stopped, not scheduled, a
                // software event or tracepoint): only read(2) knows the count
  kNoRdpmc,     // the kernel does not let this process read the counter
  kNoTime,      // no cap_user_time: the times would be stale
  kBusy,        // the writer kept changing the page: give up, use read(2)
};

// How many times a read restarts before giving up. The kernel updates a page
// in an interrupt on the reader's own CPU, so one retry is the usual worst.
constexpr int kPageReadAttempts = 64;

// Reads `page`. `need_time`: the caller wants the times (the group's
// leader); other events only need their count.
template <typename Instructions>
PageRead ReadPerfPage(const volatile perf_event_mmap_page *page, Instructions &instructions,
                      bool need_time, PageCount *out) {
  for (int attempt = 0; attempt < kPageReadAttempts; ++attempt) {
    const uint32_t seq = page->lock;
    // The kernel's own writer runs on this CPU and always leaves the lock
    // even; an odd one is a writer elsewhere (a test's) mid-update.
    if (seq & 1) continue;
    asm volatile("" ::: "memory");
    const uint32_t index = page->index;
    const uint64_t capabilities = page->capabilities;
    int64_t offset = page->offset;
    uint64_t enabled = page->time_enabled;
    uint64_t running = page->time_running;
    const bool can_rdpmc = capabilities & (1ull << 2);  // cap_user_rdpmc
    const bool can_time = capabilities & (1ull << 3);   // cap_user_time
    uint64_t pmc = 0, width = 0, cycles = 0, time_offset = 0;
    uint32_t time_mult = 0;
    uint16_t time_shift = 0;
    if (index != 0 && can_rdpmc) {
      width = page->pmc_width;
      pmc = instructions.ReadPmc(index - 1);
    }
    if (need_time && can_time) {
      cycles = instructions.ReadTimestamp();
      time_offset = page->time_offset;
      time_mult = page->time_mult;
      time_shift = page->time_shift;
    }
    asm volatile("" ::: "memory");
    if (page->lock != seq) continue;

    if (index == 0) return PageRead::kNotRunning;
    if (!can_rdpmc) return PageRead::kNoRdpmc;
    if (need_time && !can_time) return PageRead::kNoTime;
    // The counter is `width` bits wide: sign-extend it, so that a counter the
    // kernel started at a negative value (to interrupt on overflow) adds to
    // `offset` correctly across its wrap.
    if (width > 0 && width < 64) {
      const unsigned shift = static_cast<unsigned>(64 - width);
      pmc = static_cast<uint64_t>(static_cast<int64_t>(pmc << shift) >> shift);
    }
    out->count = static_cast<uint64_t>(offset) + pmc;
    if (need_time) {
      // Nanoseconds since the page's times were written, from the timestamp
      // counter, split so that cycles * time_mult cannot overflow.
      const uint64_t quotient = time_shift < 64 ? cycles >> time_shift : 0;
      const uint64_t remainder =
          time_shift < 64 ? cycles & ((uint64_t{1} << time_shift) - 1) : cycles;
      const uint64_t delta =
          time_offset + quotient * time_mult + ((remainder * time_mult) >> time_shift);
      enabled += delta;
      running += delta;  // index != 0: running now
    }
    out->time_enabled = enabled;
    out->time_running = running;
    return PageRead::kOk;
  }
  return PageRead::kBusy;
}

}  // namespace pmapi
