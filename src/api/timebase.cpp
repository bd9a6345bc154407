// SPDX-License-Identifier: MIT
// AIX libc's timebase calls (read_real_time, time_base_to_time, ...).
// Linux's libc has none of them, and pm_tstart and friends hand back
// timebasestruct_t values, so libpmapi provides them over CLOCK_MONOTONIC.
//
// api/export.h comes first so these definitions keep default visibility.
#include "api/export.h"

#include <stdint.h>

#include "api/timebase.h"

namespace {

constexpr uint64_t kNanosPerSecond = 1000000000u;

int ReadTicks(timebasestruct_t *t) {
  if (t == nullptr) return -1;
  pmapi::TicksToTimebase(pmapi::MonotonicNanos(), t);
  return RTC_POWER_PC;
}

}  // namespace

namespace pmapi {

void TicksToTimebase(uint64_t ns, struct timebasestruct *out) {
  out->flag = RTC_POWER_PC;
  out->tb_high = static_cast<unsigned int>(ns >> 32);
  out->tb_low = static_cast<unsigned int>(ns & 0xffffffffu);
}

}  // namespace pmapi

extern "C" {

// `size` is reserved on AIX too; callers pass TIMEBASE_SZ.  The return value
// is the flag, which clients such as GASNet assert to be RTC_POWER_PC.
int read_real_time(timebasestruct_t *t, size_t /*size*/) { return ReadTicks(t); }

// AIX distinguishes these from read_real_time only on hardware whose
// timebase can be rewritten; CLOCK_MONOTONIC already has every property they
// promise (monotonic, per-system, cheap).
int read_wall_time(timebasestruct_t *t, size_t /*size*/) { return ReadTicks(t); }
int mread_real_time(timebasestruct_t *t, size_t /*size*/) { return ReadTicks(t); }

// RTC_POWER_PC ticks -> RTC_POWER seconds + nanoseconds, exactly: a tick is a
// nanosecond.  Already-converted values pass through; anything else is an
// error, as on AIX.  A tick count whose seconds do not fit tb_high (beyond
// 2^32 s, ~136 years) cannot be represented and is refused unchanged.
int time_base_to_time(timebasestruct_t *t, size_t /*size*/) {
  if (t == nullptr) return -1;
  if (t->flag == RTC_POWER) return 0;
  if (t->flag != RTC_POWER_PC) return -1;
  const uint64_t ticks = (static_cast<uint64_t>(t->tb_high) << 32) | t->tb_low;
  const uint64_t seconds = ticks / kNanosPerSecond;
  if (seconds > UINT32_MAX) return -1;
  t->tb_high = static_cast<unsigned int>(seconds);
  t->tb_low = static_cast<unsigned int>(ticks % kNanosPerSecond);
  t->flag = RTC_POWER;
  return 0;
}

}  // extern "C"
