/* SPDX-License-Identifier: MIT */
// The kernel's CPU list format, as in /sys/devices/system/cpu/online and
// cgroup cpuset files: comma-separated numbers and inclusive ranges
// ("0-3,5,7-8"), optionally ending in a newline. An empty list is valid.
#pragma once

#include <string>
#include <vector>

#include "base/status.h"

namespace pmapi {

// Far above any kernel's NR_CPUS; bounds the work a corrupt range can cause.
constexpr int kMaxLinuxCpu = 65535;

// Fills `cpus` with the listed CPU numbers, ascending and without repeats.
// Anything else (letters, empty items, a reversed range, a number above
// kMaxLinuxCpu) is Pmapi_KernelError with the offending text in the detail;
// `cpus` is then left empty.
Status ParseCpuList(const std::string &text, std::vector<int> *cpus);

}  // namespace pmapi
