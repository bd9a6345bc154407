// Assembling the catalog from its sources, libpfm4 on a worker thread meanwhile.
#include "catalog/catalog_assembly.h"

#include <algorithm>
#include <future>
#include <system_error>

#include "catalog/id_ranges.h"
#include "catalog/pfm_source.h"
#include "catalog/prefault.h"
#include "catalog/status_probe.h"
#include "catalog/sysfs_pmu_source.h"
#include "catalog/tables.h"
#include "catalog/tracepoint_source.h"

namespace pmapi {
namespace {

// Sysfs PMU events are few; libpfm4 lists ~150 events on this AMD machine and a few thousand
// on recent Intel ones. Reserving more than is used costs address space, not memory.
constexpr size_t kRoomForPfmAndSysfsEvents = 8192;

void AddRange(int first_id, size_t first_position, CatalogContents *contents) {
  contents->ranges.push_back(
      IdRange{first_id, first_position, contents->events.size() - first_position});
}

}  // namespace

Status AssembleCatalog(CatalogContents *contents) {
  // pfm_initialize costs ~2 ms here, nearly all of it CPUID instructions trapping to the
  // hypervisor (libpfm4 runs detection for each of its ~390 PMU models); reading the tables,
  // sysfs and tracefs and probing the kernel costs about as much again in system calls. The
  // libpfm4 work runs on a worker thread meanwhile (docs/catalog.md has the numbers).
  std::vector<TableRecord> records;
  std::promise<const std::vector<TableRecord> *> records_ready;
  std::shared_future<const std::vector<TableRecord> *> records_future =
      records_ready.get_future().share();
  std::future<PfmSnapshot> pfm;
  try {
    pfm = std::async(std::launch::async, TakePfmSnapshot, records_future);
  } catch (const std::system_error &) {
    pfm = std::async(std::launch::deferred, TakePfmSnapshot, records_future);  // no thread
  }
  Status load_status = LoadEventTables(&records);
  records_ready.set_value(&records);

  // Events are stored in the order they are built, so that none is moved afterwards (moving
  // ~2500 events into fresh memory costs ~0.3 ms of page faults here); Catalog::InIdOrder()
  // gives the id order. The capacity guess leaves room for the libpfm4 events, known only
  // after the join.
  std::vector<CatalogEvent> &events = contents->events;
  StatusProbe probe;
  std::vector<SysfsPmuEvents> sysfs_pmus = ListSysfsPmuEvents();
  const ArmPmuEvents arm = ListArmPmuEvents(sysfs_pmus);
  TracepointList tracepoints = ListTracepoints();
  contents->tracefs_root = tracepoints.tracefs_root;
  events.reserve(tracepoints.names.size() + records.size() + kRoomForPfmAndSysfsEvents);
  // The events known to come, within what was reserved: their pages in one call.
  size_t known = tracepoints.names.size() + records.size();
  for (const SysfsPmuEvents &pmu : sysfs_pmus) known += pmu.events.size();
  PrefaultForWriting(events.data(), std::min(known, events.capacity()) * sizeof(CatalogEvent));
  size_t position = events.size();
  AddSysfsPmuEvents(sysfs_pmus, &probe, &events);
  AddRange(kFirstSysfsPmuId, position, contents);
  position = events.size();
  AddTracepointEvents(std::move(tracepoints), &probe, &events);
  AddRange(kFirstTracepointId, position, contents);
  probe.ProbeKernelGenericEvents();
  PfmSnapshot snapshot = pfm.get();

  contents->table_position = events.size();
  AddTableEvents(records, snapshot, &probe, arm, &events);
  contents->table_count = events.size() - contents->table_position;
  position = events.size();
  AddPfmEvents(snapshot, &probe, arm, &events, &contents->proc_name);
  AddRange(kFirstPfmId, position, contents);
  if (contents->proc_name.empty())
    contents->proc_name = "Linux host (libpfm4 detected no core PMU)";
  return load_status;
}

}  // namespace pmapi
