// Where each source's event ids start (docs/catalog.md). Table ids are 1..99999 and stable
// everywhere; discovered events are numbered from a base in a deterministic order, so their
// ids are stable on one machine with one kernel and libpfm4, not across machines.
#pragma once

namespace pmapi {

constexpr int kFirstPfmId = 100000;          // libpfm4 events, in libpfm4's enumeration order
constexpr int kFirstSysfsPmuId = 1000000;    // sysfs PMU events, sorted by PMU then event name
constexpr int kFirstTracepointId = 2000000;  // tracepoints, in the kernel's available_events order

}  // namespace pmapi
