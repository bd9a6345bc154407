/* SPDX-License-Identifier: MIT */
// Which process a controller belongs to. A child made by fork holds copies of its parent's
// descriptors (the same perf events) but not the perf sample rings (the kernel does not copy
// those mappings), so a controller that crossed a fork must neither drain nor disable anything:
// it is the parent's. Each fork child gets a new generation; an engine remembers the one it was
// made in.
#pragma once

#include <stdint.h>

namespace perfmon {

// 0 in the process that loaded the library, one more in each child after each fork.
uint64_t ForkGeneration();

}  // namespace perfmon
