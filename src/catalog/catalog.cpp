// Assembles the catalog from its sources and answers lookups.
#include "catalog/catalog.h"

#include <algorithm>
#include <cctype>
#include <future>
#include <mutex>
#include <system_error>
#include <unordered_map>

#include "catalog/id_ranges.h"
#include "catalog/pfm_bridge.h"
#include "catalog/pfm_source.h"
#include "catalog/status_probe.h"
#include "catalog/sysfs_pmu_source.h"
#include "catalog/table_loader.h"
#include "catalog/tracepoint_source.h"
#include "pmapi.h"

namespace pmapi {
namespace {

// Sysfs PMU events are few; libpfm4 lists ~150 events on this AMD machine and a few thousand
// on recent Intel ones. Reserving more than is used costs address space, not memory.
constexpr size_t kRoomForPfmAndSysfsEvents = 8192;

std::string Lowercase(std::string text) {
  for (char &c : text) c = static_cast<char>(tolower(static_cast<unsigned char>(c)));
  return text;
}

}  // namespace

// Ids of discovered events are consecutive from their source's base, so an id lookup is
// arithmetic; only the few table ids need a search. The name index is built on the first
// name lookup, not at start-up, because pm_initialize never needs it.
struct Catalog::Index {
  struct Range {
    int first_id = 0;
    size_t first_position = 0;
    size_t count = 0;
  };
  size_t table_position = 0;  // events_[table_position, +table_count) are the table
  size_t table_count = 0;     // events, sorted by id
  std::vector<Range> ranges;
  std::string tracefs_root;

  std::once_flag names_once;
  std::unordered_map<std::string, size_t> by_name;
  std::unordered_map<std::string, size_t> by_lowercase_name;
};

std::unique_ptr<Catalog> Catalog::Build() { return std::unique_ptr<Catalog>(new Catalog()); }

const Catalog &Catalog::Get() {
  static const Catalog *catalog = Build().release();  // lives until exit: lists point into it
  return *catalog;
}

Catalog::~Catalog() { delete index_; }

Catalog::Catalog() : index_(new Index) {
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
  load_status_ = LoadEventTables(&records);
  records_ready.set_value(&records);

  // Events are stored in the order they are built, so that none is moved afterwards (moving
  // ~2500 events into fresh memory costs ~0.3 ms of page faults here); InIdOrder() gives the
  // id order. The capacity guess leaves room for the libpfm4 events, known only after the join.
  StatusProbe probe;
  std::vector<SysfsPmuEvents> sysfs_pmus = ListSysfsPmuEvents();
  TracepointList tracepoints = ListTracepoints();
  index_->tracefs_root = tracepoints.tracefs_root;
  events_.reserve(tracepoints.names.size() + records.size() + kRoomForPfmAndSysfsEvents);
  size_t position = events_.size();
  AddSysfsPmuEvents(sysfs_pmus, &probe, &events_);
  AddRange(kFirstSysfsPmuId, position);
  position = events_.size();
  AddTracepointEvents(std::move(tracepoints), &probe, &events_);
  AddRange(kFirstTracepointId, position);
  probe.ProbeKernelGenericEvents();
  PfmSnapshot snapshot = pfm.get();

  index_->table_position = events_.size();
  AddTableEvents(records, snapshot, &probe, &events_);
  index_->table_count = events_.size() - index_->table_position;
  position = events_.size();
  AddPfmEvents(snapshot, &probe, &events_, &proc_name_);
  AddRange(kFirstPfmId, position);
  if (proc_name_.empty()) proc_name_ = "Linux host (libpfm4 detected no core PMU)";
}

void Catalog::AddRange(int first_id, size_t first_position) {
  index_->ranges.push_back(Index::Range{first_id, first_position, events_.size() - first_position});
}

std::vector<const CatalogEvent *> Catalog::InIdOrder() const {
  std::vector<const CatalogEvent *> ordered;
  ordered.reserve(events_.size());
  for (size_t i = 0; i < index_->table_count; ++i) {
    ordered.push_back(&events_[index_->table_position + i]);
  }
  std::vector<Index::Range> ranges = index_->ranges;
  std::sort(ranges.begin(), ranges.end(),
            [](const Index::Range &a, const Index::Range &b) { return a.first_id < b.first_id; });
  for (const Index::Range &range : ranges) {
    for (size_t i = 0; i < range.count; ++i) ordered.push_back(&events_[range.first_position + i]);
  }
  return ordered;
}

const CatalogEvent *Catalog::FindId(int id) const {
  for (const Index::Range &range : index_->ranges) {
    if (id >= range.first_id && static_cast<size_t>(id - range.first_id) < range.count) {
      return &events_[range.first_position + static_cast<size_t>(id - range.first_id)];
    }
  }
  auto tables_begin = events_.begin() + static_cast<std::ptrdiff_t>(index_->table_position);
  auto tables_end = tables_begin + static_cast<std::ptrdiff_t>(index_->table_count);
  auto found = std::lower_bound(tables_begin, tables_end, id,
                                [](const CatalogEvent &event, int key) { return event.id < key; });
  return found != tables_end && found->id == id ? &*found : nullptr;
}

const CatalogEvent *Catalog::FindName(const std::string &name) const {
  std::call_once(index_->names_once, [this] {
    index_->by_name.reserve(events_.size());
    index_->by_lowercase_name.reserve(events_.size());
    for (size_t i = 0; i < events_.size(); ++i) {
      index_->by_name.emplace(events_[i].short_name, i);
      // The first of two names differing only in case wins the case-insensitive lookup.
      index_->by_lowercase_name.emplace(Lowercase(events_[i].short_name), i);
    }
  });
  auto exact = index_->by_name.find(name);
  if (exact != index_->by_name.end()) return &events_[exact->second];
  auto folded = index_->by_lowercase_name.find(Lowercase(name));
  return folded != index_->by_lowercase_name.end() ? &events_[folded->second] : nullptr;
}

Status Catalog::Encode(const CatalogEvent &event, perf_event_attr *attr) const {
  switch (event.source) {
    case EventSource::kTable:
    case EventSource::kPfm:
    case EventSource::kSoftware:
      return EncodePfmEvent(event.encoding, attr);
    case EventSource::kSysfsPmu:
      return EncodeSysfsPmuEvent(event.encoding, attr);
    case EventSource::kTracepoint:
      return EncodeTracepoint(index_->tracefs_root, event.short_name, attr);
  }
  return Status(Pmapi_InvalidEvent, "event " + event.short_name + ": unknown source");
}

}  // namespace pmapi
