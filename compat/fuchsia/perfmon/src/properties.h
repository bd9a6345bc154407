/* SPDX-License-Identifier: MIT */
// What this machine offers perfmon: counter counts and widths of the hardware PMU (none on a
// machine without one, as in most VMs), and whether the kernel gives branch stacks.
#pragma once

#include <vector>

#include "lib/perfmon/types.h"

namespace perfmon {

// Probed once per process, through the kernel seam.
const perfmon_properties_t &MachineProperties();

// The CPUs the buffers stand for: buffer i is the i-th online CPU, in Linux's order.
const std::vector<int> &OnlineCpus();

}  // namespace perfmon
