// The sources' descriptors by kind, and the catalog assembled from them: libpfm4 on a worker
// thread while the calling thread parses the tables, reads sysfs and tracefs and probes.
#include "catalog/event_sources.h"

#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <future>
#include <system_error>

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

}  // namespace pmapi
