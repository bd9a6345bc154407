// SPDX-License-Identifier: MIT
// The sources' descriptors by kind, the catalog assembled from them (libpfm4 on a worker thread
// while the calling thread parses the tables, reads sysfs and tracefs and probes), and the
// kernel probes that give every source's events their status.
#include "catalog/event_sources.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <future>
#include <system_error>

#include "base/kernel.h"

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23  // Linux 5.14; older C libraries' headers lack it
#endif

namespace pmapi {
namespace {

// Indexed by EventSource.
const EventSourceDriver *const kDrivers[] = {&kTableSource, &kPfmSource, &kSoftwareSource,
                                             &kSysfsPmuSource, &kTracepointSource};

// Sysfs PMU events are few; libpfm4 lists ~150 events on this AMD machine and a few thousand
// on recent Intel ones. Reserving more than is used costs address space, not memory.
constexpr size_t kRoomForPfmAndSysfsEvents = 8192;

// Runs one source's enumeration and records where its events went: the table run, or an id
// range of a discovered source.
void Enumerate(const EventSourceDriver &source, SourceScan *scan, StatusProbe *probe,
               CatalogContents *contents) {
  const size_t position = contents->events.size();
  source.enumerate(scan, probe, &contents->events);
  const size_t count = contents->events.size() - position;
  if (source.first_id == 0) {
    contents->table_position = position;
    contents->table_count = count;
  } else {
    contents->ranges.push_back(IdRange{source.first_id, position, count});
  }
}

}  // namespace

const EventSourceDriver *SourceDriver(EventSource kind) {
  const size_t index = static_cast<size_t>(kind);
  return index < sizeof kDrivers / sizeof kDrivers[0] ? kDrivers[index] : nullptr;
}

void PrefaultForWriting(void *block, size_t size) {
  const uintptr_t page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  const uintptr_t begin = (reinterpret_cast<uintptr_t>(block) + page - 1) & ~(page - 1);
  const uintptr_t end = (reinterpret_cast<uintptr_t>(block) + size) & ~(page - 1);
  if (end > begin) madvise(reinterpret_cast<void *>(begin), end - begin, MADV_POPULATE_WRITE);
}

Status AssembleCatalog(CatalogContents *contents) {
  // pfm_initialize costs ~2 ms here, nearly all of it CPUID instructions trapping to the
  // hypervisor (libpfm4 runs detection for each of its ~390 PMU models); reading the tables,
  // sysfs and tracefs and probing the kernel costs about as much again in system calls. The
  // libpfm4 work runs on a worker thread meanwhile (docs/catalog.md has the numbers).
  SourceScan scan;
  std::promise<const std::vector<TableRecord> *> records_ready;
  std::shared_future<const std::vector<TableRecord> *> records_future =
      records_ready.get_future().share();
  std::future<PfmSnapshot> pfm;
  try {
    pfm = std::async(std::launch::async, TakePfmSnapshot, records_future);
  } catch (const std::system_error &) {
    pfm = std::async(std::launch::deferred, TakePfmSnapshot, records_future);  // no thread
  }
  Status load_status = LoadEventTables(&scan.records);
  records_ready.set_value(&scan.records);

  // Events are stored in the order they are built, so that none is moved afterwards (moving
  // ~2500 events into fresh memory costs ~0.3 ms of page faults here); Catalog::InIdOrder()
  // gives the id order. The capacity guess leaves room for the libpfm4 events, known only
  // after the join.
  std::vector<CatalogEvent> &events = contents->events;
  StatusProbe probe;
  scan.sysfs_pmus = ListSysfsPmuEvents();
  scan.arm = ListArmPmuEvents(scan.sysfs_pmus);
  scan.tracepoints = ListTracepoints();
  contents->tracefs_root = scan.tracepoints.tracefs_root;
  events.reserve(scan.tracepoints.names.size() + scan.records.size() + kRoomForPfmAndSysfsEvents);
  // The events known to come, within what was reserved: their pages in one call.
  size_t known = scan.tracepoints.names.size() + scan.records.size();
  for (const SysfsPmuEvents &pmu : scan.sysfs_pmus) known += pmu.events.size();
  PrefaultForWriting(events.data(), std::min(known, events.capacity()) * sizeof(CatalogEvent));

  // The sources that need no libpfm4 first, then the join. This order is the storage order
  // (the cache's layout), not the id order.
  Enumerate(kSysfsPmuSource, &scan, &probe, contents);
  Enumerate(kTracepointSource, &scan, &probe, contents);
  probe.ProbeKernelGenericEvents();
  scan.pfm = pfm.get();
  Enumerate(kTableSource, &scan, &probe, contents);
  Enumerate(kPfmSource, &scan, &probe, contents);  // the software events among them
  contents->proc_name =
      scan.proc_name.empty() ? "Linux host (libpfm4 detected no core PMU)" : scan.proc_name;
  return load_status;
}

// ---- Status probes ---------------------------------------------------------------------

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

ProbeResult ProbeOnce(const perf_event_attr &attr) {
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
  ProbeResult result = ProbeOnce(attr);
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
    hardware_ = ProbeOnce(cycles);
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
  // refused is each id asked about.
  perf_event_attr attr;
  memset(&attr, 0, sizeof attr);
  attr.type = PERF_TYPE_SOFTWARE;
  attr.config = PERF_COUNT_SW_CGROUP_SWITCHES;
  ProbeResult newest = Accepts(attr);
  for (uint64_t config = 0; config < PERF_COUNT_SW_CGROUP_SWITCHES; ++config) {
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
