// Probing the kernel for event classes.
#include "catalog/event_sources.h"

#include <errno.h>
#include <string.h>

#include "base/kernel.h"

namespace pmapi {
namespace {

int OpenAndClose(perf_event_attr attr, bool exclude_kernel) {
  attr.size = sizeof attr;
  attr.disabled = 1;
  attr.exclude_kernel = exclude_kernel ? 1 : 0;
  attr.exclude_hv = exclude_kernel ? 1 : 0;
  Kernel &kernel = CurrentKernel();
  int fd = kernel.PerfEventOpen(attr, 0, -1, -1);
  if (fd < 0) return -fd;
  kernel.Close(fd);
  return 0;
}

ProbeResult Probe(const perf_event_attr &attr) {
  ProbeResult result;
  result.err = OpenAndClose(attr, true);
  // Some PMUs (msr, most uncore PMUs) refuse to exclude any mode: EINVAL. Ask again counting
  // both modes so that such events are reported as countable, with that caveat.
  if (result.err == EINVAL && OpenAndClose(attr, false) == 0) {
    result.err = 0;
    result.needs_both_modes = true;
  }
  return result;
}

}  // namespace

ProbeResult StatusProbe::Accepts(const perf_event_attr &attr) {
  if (attr.type == PERF_TYPE_HARDWARE || attr.type == PERF_TYPE_HW_CACHE) {
    ProbeResult hardware = HardwareClass();
    if (hardware.err != 0) return hardware;
  }
  if (attr.type == PERF_TYPE_TRACEPOINT) return TracepointClass();
  Key key{attr.type, attr.config, attr.config1, attr.config2};
  auto cached = cache_.find(key);
  if (cached != cache_.end()) return cached->second;
  ProbeResult result = Probe(attr);
  // A model-specific event refused like this means the same as for the generic ones.
  if (attr.type == PERF_TYPE_RAW && (result.err == ENOENT || result.err == EOPNOTSUPP)) {
    result.no_hardware_pmu = true;
  }
  cache_.emplace(key, result);
  return result;
}

ProbeResult StatusProbe::HardwareClass() {
  if (!hardware_probed_) {
    perf_event_attr cycles;
    memset(&cycles, 0, sizeof cycles);
    cycles.type = PERF_TYPE_HARDWARE;
    cycles.config = PERF_COUNT_HW_CPU_CYCLES;
    hardware_ = Probe(cycles);
    // A kernel without a hardware PMU (virtual machines without a vPMU) answers ENOENT, newer
    // kernels EOPNOTSUPP; either way no generic hardware event can count.
    hardware_.no_hardware_pmu = hardware_.err == ENOENT || hardware_.err == EOPNOTSUPP;
    hardware_probed_ = true;
  }
  return hardware_;
}

ProbeResult StatusProbe::TracepointClass() {
  if (!tracepoint_probed_) {
    // Opening a real tracepoint costs ~0.3 ms and its close ~30-50 ms (the kernel waits out an
    // RCU grace period when the last user of a tracepoint goes away; measured here), which
    // would dominate pm_initialize. The kernel looks the tracepoint id up only after deciding
    // that the caller may count tracepoints at all, so an id no tracepoint has answers the
    // class question cheaply: EINVAL ("no such tracepoint") means the class is countable;
    // anything else (ENOENT: no tracepoint support; EACCES/EPERM: not allowed) means not.
    perf_event_attr unused_id;
    memset(&unused_id, 0, sizeof unused_id);
    unused_id.type = PERF_TYPE_TRACEPOINT;
    unused_id.config = ~0ULL;
    tracepoint_.err = OpenAndClose(unused_id, true);
    if (tracepoint_.err == EINVAL) tracepoint_.err = 0;
    tracepoint_probed_ = true;
  }
  return tracepoint_;
}

void StatusProbe::ProbeKernelGenericEvents() {
  HardwareClass();
  // Software event ids grow with kernel releases (cgroup-switches, the newest the catalog
  // uses, arrived in 5.13) and the kernel accepts every id below its own maximum alike. So one
  // probe of the newest id answers for all of them when it is accepted; only when it is
  // refused is each id asked about. DUMMY and BPF_OUTPUT count nothing and are never asked.
  perf_event_attr attr;
  memset(&attr, 0, sizeof attr);
  attr.type = PERF_TYPE_SOFTWARE;
  attr.config = PERF_COUNT_SW_CGROUP_SWITCHES;
  ProbeResult newest = Accepts(attr);
  for (uint64_t config = 0; config < PERF_COUNT_SW_CGROUP_SWITCHES; ++config) {
    if (config == PERF_COUNT_SW_DUMMY || config == PERF_COUNT_SW_BPF_OUTPUT) continue;
    attr.config = config;
    if (newest.err == 0) {
      cache_.emplace(Key{attr.type, attr.config, 0, 0}, newest);
    } else {
      Accepts(attr);
    }
  }
}

EventStatus StatusFromProbe(const ProbeResult &result, bool approximate) {
  if (result.err != 0) return EventStatus::kUnverified;
  if (approximate || result.needs_both_modes) return EventStatus::kCaveat;
  return EventStatus::kVerified;
}

std::string ProbeNote(const ProbeResult &result) {
  if (result.err == 0) {
    return result.needs_both_modes
               ? "(counts only user and kernel mode together: this kernel PMU refuses to "
                 "exclude either)"
               : "";
  }
  if (result.no_hardware_pmu) return "(not countable here: the kernel has no hardware PMU for it)";
  const char *name = strerrorname_np(result.err);
  std::string errno_text = name ? std::string(name) : "errno " + std::to_string(result.err);
  if (result.err == EACCES || result.err == EPERM) {
    return "(not countable here: the kernel refused it for lack of privilege, " + errno_text +
           "; see kernel.perf_event_paranoid)";
  }
  return "(not countable here: the kernel refused it, " + errno_text + ")";
}

void AppendNote(std::string *description, const std::string &note) {
  if (note.empty()) return;
  if (!description->empty()) description->push_back(' ');
  description->append(note);
}

}  // namespace pmapi
