// SPDX-License-Identifier: MIT
// An event's name as a PCP metric name: PCP allows letters, digits and '_' in a name's parts,
// each starting with a letter; a tracepoint's subsystem and a PMU become a level of the tree.
#ifndef PMAPI_PCP_METRIC_NAMES_H
#define PMAPI_PCP_METRIC_NAMES_H

#include "metric_ids.h"

#include <string>

namespace pmapi_pcp {

// "syscalls:sys_enter_getppid" -> "syscalls.sys_enter_getppid", "msr/tsc/" -> "msr.tsc",
// "page-faults" with :u -> "page_faults_u". `name` is without its privilege modifiers.
std::string MetricLeaf(const std::string &name, Mode mode);

// "IPC" -> "IPC", "CPUs utilized" -> "CPUs_utilized".
std::string MetricPart(const std::string &text);

}  // namespace pmapi_pcp

#endif  // PMAPI_PCP_METRIC_NAMES_H
