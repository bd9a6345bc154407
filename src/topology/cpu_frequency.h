/* SPDX-License-Identifier: MIT */
// The nominal processor clock behind pm_cycles.
#pragma once

namespace pmapi {

// The nominal CPU clock in Hz, computed afresh on each call (pm_cycles caches
// it): cpufreq's cpuinfo_max_freq for CPU 0, else the first "cpu MHz" line of
// /proc/cpuinfo (x86 kernels print one; it is the current clock, which on a
// machine without cpufreq, such as most VMs, is the fixed base clock), else 0.
// Reads through CurrentKernel(), so a test kernel can fake each source.
double NominalCpuHz();

}  // namespace pmapi
