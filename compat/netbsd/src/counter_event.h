/* SPDX-License-Identifier: MIT */
// What one NetBSD counter is asked to count: a struct pmc_counter_cfg turned
// into a perf_event_attr through libpmapi's catalog, with the PMC_TYPE_LINUX_*
// code that PMC_INFO_CPUCTR_TYPE reports for it.
#pragma once

#include <linux/perf_event.h>
#include <sys/pmc.h>

#include <string>

#include "base/status.h"

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

// The errno pmc_control reports for a core failure to open, start, stop or
// read a context: the kernel's errno unchanged, but the man page's ENODEV for
// "this event cannot be counted here" (ENOENT, EOPNOTSUPP, EINVAL) and EBUSY
// for a pinned event the kernel could not schedule. 0 for an ok status.
int ErrnoForStatus(const pmapi::Status &status);

}  // namespace pmc_netbsd
