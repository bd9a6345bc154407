// SPDX-License-Identifier: MIT
#include "properties.h"

#include <linux/perf_event.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include <string>

#include "base/kernel.h"
#include "catalog/catalog.h"
#include "topology/cpu_map.h"

namespace perfmon {
namespace {

// Whether the kernel opens a hardware event here (it refuses with ENOENT/EOPNOTSUPP where
// there is no PMU), and with a branch stack if `branches`.
bool KernelOpens(bool branches) {
  perf_event_attr attr{};
  attr.size = sizeof attr;
  attr.type = PERF_TYPE_HARDWARE;
  attr.config = PERF_COUNT_HW_CPU_CYCLES;
  attr.disabled = 1;
  attr.exclude_kernel = 1;
  attr.exclude_hv = 1;
  if (branches) {
    attr.sample_period = 1000000;
    attr.sample_type = PERF_SAMPLE_BRANCH_STACK;
    attr.branch_sample_type = PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_USER;
  }
  pmapi::Kernel &kernel = pmapi::CurrentKernel();
  int fd = kernel.PerfEventOpen(attr, 0, -1, -1);
  if (fd < 0) return false;
  kernel.Close(fd);
  return true;
}

perfmon_properties_t Probe() {
  perfmon_properties_t props{};
  props.api_version = PERFMON_API_VERSION;
  props.max_num_events = PERFMON_MAX_NUM_EVENTS;
  if (!KernelOpens(false)) return props;  // no PMU: nothing but software events and tracepoints
  // Counter counts: libpfm4's description of the detected core PMU, through the catalog.
  pmapi::CoreCounters counters;
  if (pmapi::CoreCounterCounts(&counters)) {
    props.max_num_programmable_events = static_cast<uint16_t>(counters.programmable);
    props.max_num_fixed_events = static_cast<uint16_t>(counters.fixed);
  }
#if defined(__x86_64__) || defined(__i386__)
  // Widths and the PMU version: CPUID leaf 0xA, the architectural description libpfm4 reads too.
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (__get_cpuid_count(0xa, 0, &eax, &ebx, &ecx, &edx)) {
    props.pm_version = eax & 0xff;
    props.max_programmable_counter_width = (eax >> 16) & 0xff;
    props.max_fixed_counter_width = (edx >> 5) & 0xff;
  }
#endif
  if (KernelOpens(true)) props.flags |= PERFMON_PROPERTY_HAS_LAST_BRANCH;
  return props;
}

// The topology's CPU map of the CPUs online now, in ascending Linux numbers; CPU 0 alone when
// the kernel does not say.
std::vector<int> ReadOnlineCpus() {
  pmapi::CpuMap online;
  if (pmapi::CpuMap::Online(pmapi::Topology(), &online).ok() && online.size() > 0) {
    return online.linux_cpus();
  }
  return {0};
}

}  // namespace

const perfmon_properties_t &MachineProperties() {
  static const perfmon_properties_t props = Probe();
  return props;
}

const std::vector<int> &OnlineCpus() {
  static const std::vector<int> cpus = ReadOnlineCpus();
  return cpus;
}

}  // namespace perfmon
