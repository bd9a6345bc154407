// SPDX-License-Identifier: MIT
#include "workloads.h"

#include <string.h>

#include "regions.h"

namespace {

const Workload kWorkloads[] = {
    {"getppid", "syscalls:sys_enter_getppid", "syscalls:sys_enter_getppid",
     "syscalls:sys_enter_getppid", false},
    {"faults", "page-faults", "page-faults", "perf::PAGE-FAULTS", false},
    {"busy", "task-clock", "task-clock", "perf::TASK-CLOCK", false},
    {"switches", "context-switches", "context-switches", "perf::CONTEXT-SWITCHES", false},
    {"instructions", "PM_INST_CMPL", "instructions:u", "perf::INSTRUCTIONS", true},
};

}  // namespace

const Workload *FindWorkload(const std::string &kind) {
  for (const Workload &workload : kWorkloads) {
    if (kind == workload.kind) return &workload;
  }
  return nullptr;
}

bool RunRegion(const Workload &workload, long n) {
  const std::string kind = workload.kind;
  if (kind == "getppid") CallGetppid(n);
  if (kind == "faults") TouchFreshPages(n);
  if (kind == "busy") BusyMilliseconds(n);
  if (kind == "switches") PingPong(n, kPartnerReadFd, kPartnerWriteFd);
  if (kind == "instructions") return KnownInstructions(n);
  return true;
}
