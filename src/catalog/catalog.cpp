// Answers lookups over the catalog's contents, and decides where they come from: the on-disk
// cache or the sources.
#include "catalog/catalog.h"

#include <algorithm>
#include <mutex>
#include <string_view>
#include <unordered_map>  // unordered_multimap

#include "catalog/catalog_assembly.h"
#include "catalog/catalog_cache.h"
#include "catalog/catalog_contents.h"
#include "catalog/pfm_source.h"
#include "catalog/sysfs_pmu_source.h"
#include "catalog/tracepoint_source.h"
#include "core/kernel.h"
#include "pmapi.h"

namespace pmapi {
namespace {

char FoldCase(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c + ('a' - 'A')) : c; }

// Names compare and hash without regard to ASCII case, so one index answers both the exact
// and the case-insensitive lookup.
struct FoldedHash {
  size_t operator()(std::string_view name) const {
    size_t hash = 14695981039346656037ULL;
    for (char c : name) hash = (hash ^ static_cast<unsigned char>(FoldCase(c))) * 1099511628211ULL;
    return hash;
  }
};

struct FoldedEqual {
  bool operator()(std::string_view a, std::string_view b) const {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i) {
      if (FoldCase(a[i]) != FoldCase(b[i])) return false;
    }
    return true;
  }
};

}  // namespace

// The name index is built on the first name lookup, not at start-up, because pm_initialize
// without groups never needs it. It keys on views of the events' own strings (which never
// move), so building it allocates no string, and folds case, so names differing only in case
// share a bucket run; a lookup prefers the exact spelling, then the first such event.
struct Catalog::Index {
  CatalogContents contents;

  std::once_flag names_once;
  std::unordered_multimap<std::string_view, size_t, FoldedHash, FoldedEqual> by_name;
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
  std::call_once(index_->names_once, [this, &events] {
    index_->by_name.reserve(events.size());
    for (size_t i = 0; i < events.size(); ++i) index_->by_name.emplace(events[i].short_name, i);
  });
  // Of several events answering to the name, the earliest stored wins, exact spelling first.
  size_t exact = events.size(), folded = events.size();
  auto [begin, end] = index_->by_name.equal_range(name);
  for (auto entry = begin; entry != end; ++entry) {
    size_t &best = entry->first == name ? exact : folded;
    if (entry->second < best) best = entry->second;
  }
  size_t found = exact < events.size() ? exact : folded;
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
