/* SPDX-License-Identifier: MIT */
// The CPU time of the processes and threads pmcount attached to (-p, -t), from /proc: what
// their user and system time lines report. A command given with them only says how long to
// count, so its own times are not theirs.
#pragma once

#include <stdint.h>

#include <vector>

#include "attach_targets.h"
#include "options.h"

namespace pmcount {

struct CpuTimes {
  uint64_t user_ns = 0;
  uint64_t system_ns = 0;
};

// The sum over `targets` of the user and system time each has used so far (a process: all its
// threads, the exited ones too). False when one of them cannot be read (it has exited and been
// reaped): then no time is known.
bool ReadCpuTimes(const std::vector<AttachTarget> &targets, CpuTimes *times);

}  // namespace pmcount
