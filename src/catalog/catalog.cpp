// SPDX-License-Identifier: MIT
// Answers lookups over the catalog's contents, and decides where they come from: the on-disk
// cache or the sources.
#include "catalog/catalog.h"

#include <stdlib.h>

#include <mutex>

#include "base/engine_counts.h"
#include "base/kernel.h"
#include "base/settings.h"
#include "catalog/added_events.h"
#include "catalog/catalog_cache.h"
#include "catalog/catalog_contents.h"
#include "catalog/event_sources.h"
#include "catalog/group_catalog.h"
#include "catalog/id_order.h"
#include "catalog/name_index.h"
#include "catalog/pfm_bridge.h"
#include "catalog/tables.h"
#include "pmapi.h"

namespace pmapi {

// The name index is built on the first name lookup, not at start-up, because pm_initialize
// without groups never needs it.
struct Catalog::Index {
  CatalogContents contents;
  IdOrder order;

  std::once_flag names_once;
  NameIndex names;

  AddedEvents added;  // ids from order.positions.size() on
};

namespace {

// Where FindName would find each group member in these events (exact name first, then
// ignoring case, earliest stored first: the name index's rules, so the same answers).
void StoreMemberPositions(CatalogContents *contents) {
  NameIndex names;
  names.Build(contents->events);
  for (const GroupRecord &group : contents->groups) {
    for (const std::string &member : group.members) {
      size_t position = names.Find(contents->events, member);
      contents->member_positions.push_back(
          position < contents->events.size() ? static_cast<uint32_t>(position) : kNoStoredPosition);
    }
  }
  size_t filler = names.Find(contents->events, kFillerEvent);
  contents->filler_position =
      filler < contents->events.size() ? static_cast<uint32_t>(filler) : kNoStoredPosition;
}

}  // namespace

std::unique_ptr<Catalog> Catalog::Build() {
  CatalogContents contents;
  Status status = AssembleCatalog(&contents);
  return std::unique_ptr<Catalog>(new Catalog(std::move(contents), status, false));
}

std::unique_ptr<Catalog> Catalog::BuildCached(const std::string &cache_path, bool boot_in_key) {
  if (cache_path.empty()) return Build();
  // The key is read before the sources: should perf_event_paranoid change while they are read,
  // the stored catalog is filed under the older value, which no later process computes.
  const std::string key = CatalogCacheKey(boot_in_key);
  if (key.empty()) return Build();
  CatalogContents contents;
  // A file written while tracefs could not be read (not mounted yet: a boot script or a test
  // harness mounts it after some first process ran) is used only while that is still so; one
  // access(2), made only for such a file, tells. Otherwise it would keep every process of the
  // boot without tracepoints.
  if (LoadCatalogCache(cache_path, key, &contents) &&
      (!contents.tracefs_root.empty() || !kTracepointSource.detect().empty())) {
    return std::unique_ptr<Catalog>(new Catalog(std::move(contents), Status::Ok(), true));
  }
  contents = CatalogContents();
  Status status = AssembleCatalog(&contents);
  // A catalog with a table error is not stored: pm_initialize reports that error every time.
  if (status.ok()) {
    // The compiled-in groups go into the file too (~0.15 ms to parse and place, once per boot
    // here), so that later processes asking for groups restore them instead. Only those: a
    // site's ($PMAPI_GROUPS_DIR) are read afresh by each process that names them, and such a
    // process does not use the stored ones (GroupCatalog::Build).
    contents.has_groups = LoadCompiledGroupTables(&contents.groups).ok();
    if (contents.has_groups) {
      StoreMemberPositions(&contents);
    } else {
      contents.groups.clear();
    }
    StoreCatalogCache(cache_path, key, contents);
  }
  return std::unique_ptr<Catalog>(new Catalog(std::move(contents), status, false));
}

const Catalog &Catalog::Get() {
  static const Catalog *catalog = [] {
    CountEngineEvent(EngineEvent::kCatalogBuilt);
    if (&CurrentKernel() != &RealKernel()) return Build().release();
    bool boot_in_key = false;
    const std::string path = DefaultCatalogCachePath(&boot_in_key);
    return BuildCached(path, boot_in_key).release();
  }();  // lives until exit: lists point into it
  return *catalog;
}

Catalog::Catalog(CatalogContents contents, Status load_status, bool from_cache)
    : load_status_(std::move(load_status)), from_cache_(from_cache), index_(new Index) {
  index_->contents = std::move(contents);
  // Renumbered here, not by the sources, so that the cache keeps the sources' output and the
  // listed tracepoints follow this process's settings.
  std::vector<CatalogEvent> &events = index_->contents.events;
  index_->order = OrderIds(events, index_->contents.table_position, index_->contents.table_count,
                           CurrentSettings().list_tracepoints);
  for (size_t id = 0; id < index_->order.positions.size(); ++id) {
    events[index_->order.positions[id]].id = static_cast<int>(id);
  }
}

Catalog::~Catalog() { delete index_; }

const std::vector<CatalogEvent> &Catalog::events() const { return index_->contents.events; }

const std::string &Catalog::proc_name() const { return index_->contents.proc_name; }

const std::vector<GroupRecord> *Catalog::stored_groups() const {
  return index_->contents.has_groups ? &index_->contents.groups : nullptr;
}

const std::vector<uint32_t> *Catalog::stored_member_positions() const {
  return index_->contents.has_groups ? &index_->contents.member_positions : nullptr;
}

uint32_t Catalog::stored_filler_position() const { return index_->contents.filler_position; }

const CatalogEvent *Catalog::FindStoredMember(const std::string &name, uint32_t position) const {
  const std::vector<CatalogEvent> &events = index_->contents.events;
  // Found nowhere among these events when the file was written: only an event added since can
  // have the name, which is where FindName would look next.
  if (position == kNoStoredPosition) return index_->added.FindName(name);
  if (position < events.size() && events[position].short_name == name) return &events[position];
  return FindName(name);  // found ignoring case: the general lookup
}

std::vector<const CatalogEvent *> Catalog::InIdOrder() const {
  const std::vector<CatalogEvent> &events = index_->contents.events;
  const size_t added = index_->added.size();
  std::vector<const CatalogEvent *> ordered;
  ordered.reserve(events.size() + added);
  for (size_t position : index_->order.positions) ordered.push_back(&events[position]);
  for (size_t i = 0; i < added; ++i) ordered.push_back(index_->added.At(i));
  return ordered;
}

const CatalogEvent *Catalog::FindId(int id) const {
  const std::vector<size_t> &positions = index_->order.positions;
  if (id < 0) return nullptr;
  if (static_cast<size_t>(id) >= positions.size()) {
    return index_->added.At(static_cast<size_t>(id) - positions.size());
  }
  return &index_->contents.events[positions[static_cast<size_t>(id)]];
}

size_t Catalog::listed_count() const { return index_->order.listed; }

const CatalogEvent *Catalog::FindName(const std::string &name) const {
  const std::vector<CatalogEvent> &events = index_->contents.events;
  std::call_once(index_->names_once, [this, &events] { index_->names.Build(events); });
  size_t found = index_->names.Find(events, name);
  return found < events.size() ? &events[found] : index_->added.FindName(name);
}

Status Catalog::Add(const std::string &encoding, int *id) const {
  if (encoding.empty()) return Status(Pmapi_InvalidArg, "the event string is empty");
  const CatalogEvent *event = FindName(encoding);
  // POWER's events are listed under their AIX names: "power9::PM_RUN_CYC" is PM_RUN_CYC.
  const size_t sep = encoding.find("::");
  if (!event && sep != std::string::npos) {
    const CatalogEvent *bare = FindName(encoding.substr(sep + 2));
    if (bare && bare->encoding == encoding) event = bare;
  }
  if (!event) {
    const int first_id = static_cast<int>(index_->order.positions.size());
    Status status = index_->added.Add(encoding, index_->contents.tracefs_root, first_id, &event);
    if (!status.ok()) return status;
  }
  *id = event->id;
  return Status::Ok();
}

Status Catalog::Encode(const CatalogEvent &event, perf_event_attr *attr) const {
  if (event.encoded.known) {
    attr->type = event.encoded.type;
    attr->config = event.encoded.config;
    attr->config1 = event.encoded.config1;
    attr->config2 = event.encoded.config2;
    return Status::Ok();
  }
  // Each source encodes its own events (event_sources.h); a tracepoint's short name is its
  // encoding.
  const EventSourceDriver *source = SourceDriver(event.source);
  if (!source) return Status(Pmapi_InvalidEvent, "event " + event.short_name + ": unknown source");
  return source->encode(index_->contents.tracefs_root,
                        event.encoding.empty() ? event.short_name : event.encoding, attr);
}

bool CoreCounterCounts(CoreCounters *counters) {
  return PfmCoreCounters(&counters->programmable, &counters->fixed);
}

Status Catalog::EncodeName(const std::string &name, perf_event_attr *attr) const {
  if (name.empty()) return Status(Pmapi_InvalidArg, "the event name is empty");
  if (const CatalogEvent *event = FindName(name)) return Encode(*event, attr);
  // Not built and not added: what adding it would encode (a tracepoint created since the
  // catalog was built, a libpfm4 string with modifiers), without taking an id.
  return kAddedSource.encode(index_->contents.tracefs_root, name, attr);
}

}  // namespace pmapi
