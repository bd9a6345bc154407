// Answers lookups over the catalog's contents, and decides where they come from: the on-disk
// cache or the sources.
#include "catalog/catalog.h"

#include <algorithm>
#include <mutex>

#include "catalog/catalog_assembly.h"
#include "catalog/catalog_cache.h"
#include "catalog/catalog_contents.h"
#include "catalog/name_index.h"
#include "catalog/pfm_source.h"
#include "catalog/sysfs_pmu_source.h"
#include "catalog/tracepoint_source.h"
#include "core/kernel.h"
#include "pmapi.h"

namespace pmapi {

// The name index is built on the first name lookup, not at start-up, because pm_initialize
// without groups never needs it.
struct Catalog::Index {
  CatalogContents contents;

  std::once_flag names_once;
  NameIndex names;
};

std::unique_ptr<Catalog> Catalog::Build() {
  CatalogContents contents;
  Status status = AssembleCatalog(&contents);
  return std::unique_ptr<Catalog>(new Catalog(std::move(contents), status, false));
}

std::unique_ptr<Catalog> Catalog::BuildCached(const std::string &cache_dir) {
  if (cache_dir.empty()) return Build();
  // The key is read before the sources: should the machine change while they are read, the
  // stored catalog is filed under the older key, which no later process computes.
  CatalogCacheKey key = ComputeCatalogCacheKey();
  if (key.text.empty()) return Build();
  CatalogContents contents;
  if (LoadCatalogCache(cache_dir, key, &contents)) {
    return std::unique_ptr<Catalog>(new Catalog(std::move(contents), Status::Ok(), true));
  }
  Status status = AssembleCatalog(&contents);
  // A catalog with a table error is not stored: pm_initialize reports that error every time.
  if (status.ok()) StoreCatalogCache(cache_dir, key, contents);
  return std::unique_ptr<Catalog>(new Catalog(std::move(contents), status, false));
}

const Catalog &Catalog::Get() {
  static const Catalog *catalog = [] {
    bool real_kernel = &CurrentKernel() == &RealKernel();
    return BuildCached(real_kernel ? DefaultCatalogCacheDirectory() : "").release();
  }();  // lives until exit: lists point into it
  return *catalog;
}

Catalog::Catalog(CatalogContents contents, Status load_status, bool from_cache)
    : load_status_(std::move(load_status)), from_cache_(from_cache), index_(new Index) {
  index_->contents = std::move(contents);
}

Catalog::~Catalog() { delete index_; }

const std::vector<CatalogEvent> &Catalog::events() const { return index_->contents.events; }

const std::string &Catalog::proc_name() const { return index_->contents.proc_name; }

std::vector<const CatalogEvent *> Catalog::InIdOrder() const {
  const CatalogContents &contents = index_->contents;
  std::vector<const CatalogEvent *> ordered;
  ordered.reserve(contents.events.size());
  for (size_t i = 0; i < contents.table_count; ++i) {
    ordered.push_back(&contents.events[contents.table_position + i]);
  }
  std::vector<IdRange> ranges = contents.ranges;
  std::sort(ranges.begin(), ranges.end(),
            [](const IdRange &a, const IdRange &b) { return a.first_id < b.first_id; });
  for (const IdRange &range : ranges) {
    for (size_t i = 0; i < range.count; ++i) {
      ordered.push_back(&contents.events[range.first_position + i]);
    }
  }
  return ordered;
}

const CatalogEvent *Catalog::FindId(int id) const {
  const CatalogContents &contents = index_->contents;
  for (const IdRange &range : contents.ranges) {
    if (id >= range.first_id && static_cast<size_t>(id - range.first_id) < range.count) {
      return &contents.events[range.first_position + static_cast<size_t>(id - range.first_id)];
    }
  }
  auto tables_begin =
      contents.events.begin() + static_cast<std::ptrdiff_t>(contents.table_position);
  auto tables_end = tables_begin + static_cast<std::ptrdiff_t>(contents.table_count);
  auto found = std::lower_bound(tables_begin, tables_end, id,
                                [](const CatalogEvent &event, int key) { return event.id < key; });
  return found != tables_end && found->id == id ? &*found : nullptr;
}

const CatalogEvent *Catalog::FindName(const std::string &name) const {
  const std::vector<CatalogEvent> &events = index_->contents.events;
  std::call_once(index_->names_once, [this, &events] { index_->names.Build(events); });
  size_t found = index_->names.Find(events, name);
  return found < events.size() ? &events[found] : nullptr;
}

Status Catalog::Encode(const CatalogEvent &event, perf_event_attr *attr) const {
  if (event.encoded.known) {
    attr->type = event.encoded.type;
    attr->config = event.encoded.config;
    attr->config1 = event.encoded.config1;
    attr->config2 = event.encoded.config2;
    return Status::Ok();
  }
  switch (event.source) {
    case EventSource::kTable:
    case EventSource::kPfm:
    case EventSource::kSoftware:
      return EncodePfmEvent(event.encoding, attr);
    case EventSource::kSysfsPmu:
      return EncodeSysfsPmuEvent(event.encoding, attr);
    case EventSource::kTracepoint:
      return EncodeTracepoint(index_->contents.tracefs_root, event.short_name, attr);
  }
  return Status(Pmapi_InvalidEvent, "event " + event.short_name + ": unknown source");
}

}  // namespace pmapi
