/* SPDX-License-Identifier: MIT */
// The one timebase-to-nanoseconds conversion of the tests. A
// timebasestruct_t holds either raw ticks split into two 32-bit halves
// (RTC_POWER_PC, what pm_get_Tdata* and read_real_time return; ticks are
// nanoseconds on Linux) or seconds and nanoseconds (RTC_POWER, after
// time_base_to_time). The halves are joined, never added.
#pragma once

#include <stdint.h>

#include "pmapi.h"

namespace pmapi_test {

inline uint64_t TimebaseNanos(const timebasestruct_t &t) {
  if (t.flag == RTC_POWER) return uint64_t{t.tb_high} * 1000000000u + t.tb_low;
  return (uint64_t{t.tb_high} << 32) | t.tb_low;
}

// The name the reliability tests (and tests/api/family_matrix_test.cpp) use.
inline unsigned long long Nanos(const timebasestruct_t &t) { return TimebaseNanos(t); }

}  // namespace pmapi_test
