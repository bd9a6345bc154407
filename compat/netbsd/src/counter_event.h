// What one NetBSD counter is asked to count: a struct pmc_counter_cfg turned
// into a perf_event_attr through libpmapi's catalog, with the PMC_TYPE_LINUX_*
// code that PMC_INFO_CPUCTR_TYPE reports for it.
#pragma once

#include <linux/perf_event.h>
#include <sys/pmc.h>

#include <string>

namespace pmc_netbsd {

struct CounterEvent {
  int id = 0;
  std::string name;  // catalog short name
  int type_code = PMC_TYPE_LINUX_FREE;
  perf_event_attr attr{};  // type, config and privilege levels; no target bits
};

// Returns 0; EINVAL for flag bits other than PMC_CFG_*; ENODEV when the id is
// not in the catalog or cannot be encoded for perf_event_open.
int ChooseEvent(const pmc_counter_cfg &cfg, CounterEvent *out);

// The errno pmc_control reports when the kernel refuses to open, enable or
// read an event (`err` is the kernel's errno): the man page's ENODEV for
// "this event cannot be counted here", the rest unchanged.
int ErrnoForKernelFailure(int err);

}  // namespace pmc_netbsd
