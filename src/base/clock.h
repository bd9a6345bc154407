/* SPDX-License-Identifier: MIT */
// The library's one clock.  AIX reports time as "timebase ticks"; on Linux a
// tick is one nanosecond of CLOCK_MONOTONIC, so pm_tstart/pm_tstop/Tdata
// stamps, read_real_time and the kernel's enabled/running times all share a
// unit and time_base_to_time is exact integer arithmetic.
//
// Deliberately does not include pmapi.h: a file in src/api/ must include
// api/export.h first for its entry points to stay exported, and a helper
// header pulling pmapi.h in ahead of it would silently hide them.
#pragma once

#include <stdint.h>
#include <time.h>

namespace pmapi {

// Nanoseconds of CLOCK_MONOTONIC: never goes backwards, unaffected by
// settimeofday.  Inline because it sits on the pm_tstart/pm_get_tdata path.
inline uint64_t MonotonicNanos() {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return static_cast<uint64_t>(now.tv_sec) * 1000000000u + static_cast<uint64_t>(now.tv_nsec);
}

}  // namespace pmapi
