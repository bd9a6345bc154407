/* SPDX-License-Identifier: MIT */
// pm_initialize / pm_init asked about a processor type other than this machine's: the lists of
// that processor's events from libpfm4's tables, where libpfm4 has them (docs/porting.md).
#pragma once

#include "base/status.h"
#include "catalog/event_lists.h"

namespace pmapi {

// Whether `proctype` means this machine: PM_CURRENT, PM_LINUX_HOST, or a POWER type whose
// libpfm4 PMU is detected here (Linux on that POWER processor).
bool IsHostProcType(int proctype);

// The lists for processor type `proctype` (one the header names, not this machine's) under
// `status_filter`: that processor's libpfm4 events, ids 0..n-1 in libpfm4's order, every one
// unverified (it is not this machine), the same array on every counter. `*proc_name` gets
// libpfm4's description. Pmapi_InvalidProcType, saying why, for a type the header does not
// name or one libpfm4 has no tables for. Thread-safe; cached until exit.
Status ForeignProcessorLists2(int proctype, int status_filter, const EventLists2 **lists,
                              const char **proc_name);
Status ForeignProcessorLists1(int proctype, int status_filter, const EventLists1 **lists,
                              const char **proc_name);

// The same lists for one libpfm4 PMU (a pfm_pmu_t), detected here or not: what the two calls
// above answer with once the type is mapped. Tests use it with another x86 family's PMU, since
// an x86 libpfm4 has no POWER tables.
Status PfmPmuLists2(int pfm_pmu, int status_filter, const EventLists2 **lists,
                    const char **proc_name);

}  // namespace pmapi
