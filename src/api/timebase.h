/* SPDX-License-Identifier: MIT */
// The library's nanosecond ticks (base/clock.h) in AIX's timebasestruct_t: the C struct
// belongs to the API edge, so the conversion lives here, not in the base layer.
#pragma once

#include <stdint.h>

#include "base/clock.h"

struct timebasestruct;  // timebasestruct_t, from pmapi.h (see base/clock.h for why not included)

namespace pmapi {

// Stores `ns` as raw ticks: flag RTC_POWER_PC, tb_high/tb_low the upper and lower 32 bits.
// Convert with time_base_to_time.
void TicksToTimebase(uint64_t ns, struct timebasestruct *out);

}  // namespace pmapi
