/* SPDX-License-Identifier: MIT */
// The event catalog: every event this machine can name, with a stable id,
// an AIX-style short name, a description, how to encode it for
// perf_event_open, and its status here (verified / unverified / caveat).
//
// Built once per process on first use from: the events/ tables (compiled in,
// plus $PMAPI_EVENTS_DIR/*.tbl), every event of the PMUs libpfm4 detects,
// the kernel's software events, the sysfs PMU events and the tracefs
// tracepoints -- or restored from the cache file those sources filled
// (catalog_cache.h), which is what makes a cold pm_initialize cheap.
// Entries and their strings live until exit: the lists pm_initialize hands
// out point into them.
#pragma once

#include <linux/perf_event.h>

#include <stdint.h>

#include <memory>
#include <string>
#include <vector>

#include "base/engine_export.h"
#include "base/status.h"

namespace pmapi {

enum class EventSource { kTable, kPfm, kSoftware, kSysfsPmu, kTracepoint };

enum class EventStatus { kVerified, kUnverified, kCaveat };

// The perf_event_attr fields an event encodes to, when the catalog already knows them: table
// events keep what libpfm4 answered while the catalog was built, so that encoding them needs
// no libpfm4 (which a catalog restored from the cache has not even initialized).
struct EventEncoding {
  bool known = false;  // false: the source encodes the event when asked
  uint32_t type = 0;
  uint64_t config = 0;
  uint64_t config1 = 0;
  uint64_t config2 = 0;
};

struct CatalogEvent {
  // The event's position in the catalog's id order (docs/catalog.md, "Event ids"): 0.. in
  // pm_initialize's lists, where list_events[counter][id] is this event. Inside
  // CatalogContents (the sources' output and the cache) it is the source's own number instead;
  // the Catalog renumbers when it is made.
  int id = 0;
  std::string short_name;   // "PM_CYC", "syscalls:sys_enter_getppid", "msr/tsc"
  std::string long_name;    // "" for tracepoints: their short name says it all
  std::string description;  // says why when unverified or approximate
  std::string encoding;     // the string the source understands ("" for tracepoints,
                            // whose short name is their encoding)
  EventSource source = EventSource::kTable;
  EventStatus status = EventStatus::kUnverified;
  EventEncoding encoded;
};

struct CatalogContents;
struct GroupRecord;

class Catalog {
 public:
  // The process-wide catalog, built on first call (thread-safe): BuildCached() with the
  // default cache directory while the real kernel is installed; Build() when a test double is
  // (the cache describes the real kernel, never a double).
  PMAPI_ENGINE_EXPORT static const Catalog &Get();

  // A catalog read afresh from the current kernel seam and environment, touching no cache.
  // Tests build their own to see faked kernels or tables.
  static std::unique_ptr<Catalog> Build();
  // The catalog the cache file `cache_path` holds (catalog_cache.h) when its key matches;
  // otherwise Build() and store the result there. "" means no cache: Build(). Never fails for
  // the cache's sake: an unreadable, corrupt or unwritable file only costs the time of Build().
  // `boot_in_key`: the file's key names the boot too (a directory a reboot may not empty).
  static std::unique_ptr<Catalog> BuildCached(const std::string &cache_path,
                                              bool boot_in_key = false);
  ~Catalog();
  Catalog(const Catalog &) = delete;
  Catalog &operator=(const Catalog &) = delete;

  // A non-ok status if a table under $PMAPI_EVENTS_DIR (or a compiled-in
  // one) failed to parse; the detail names file and line.
  const Status &load_status() const { return load_status_; }

  // Every event built or restored from the cache, in storage order (not id order; see
  // InIdOrder). Events added with Add() are not in it.
  PMAPI_ENGINE_EXPORT const std::vector<CatalogEvent> &events() const;
  // Every event, by increasing id (ids are 0..events().size()-1, then the added events'):
  // table events first (PM_CYC, PM_INST_CMPL, ...).
  std::vector<const CatalogEvent *> InIdOrder() const;
  PMAPI_ENGINE_EXPORT const CatalogEvent *FindId(int id) const;
  // Ids 0..listed_count()-1 are the events pm_initialize lists; higher ids (tracepoints
  // outside the listed set, hardware events beyond the list bound, added events) are counted
  // by name only.
  size_t listed_count() const;
  // Exact short name first, then case-insensitive; added events after built ones.
  PMAPI_ENGINE_EXPORT const CatalogEvent *FindName(const std::string &name) const;

  // The id of the event `encoding` names: an event the catalog has (FindName), else one added
  // now (added_events.h: a tracepoint created since the catalog was built, or a libpfm4
  // string such as "INST_RETIRED:ANY_P" or "RETIRED_OPS:c=2"), with the next free id, so that
  // no id moves. The only change a catalog ever makes; safe against concurrent readers.
  Status Add(const std::string &encoding, int *id) const;

  // Fills type, config, config1, config2 (and nothing about mode) for
  // perf_event_open, through the descriptor of the event's source (event_sources.h).
  PMAPI_ENGINE_EXPORT Status Encode(const CatalogEvent &event, perf_event_attr *attr) const;
  // The same by name, from any source: an event the catalog has (FindName), else what Add
  // would encode for the name (a tracepoint, a libpfm4 string), without adding it or taking an
  // id. Pmapi_InvalidEvent says what each source said.
  Status EncodeName(const std::string &name, perf_event_attr *attr) const;

  // The host processor as libpfm4 describes its core PMU, for pm_info_t.proc_name.
  PMAPI_ENGINE_EXPORT const std::string &proc_name() const;

  // Whether this catalog was restored from the on-disk cache rather than built from sources.
  bool from_cache() const { return from_cache_; }
  // The compiled-in groups, parsed, when the cache file held them (or this catalog stored them
  // there); nullptr otherwise. GroupCatalog::Build uses them instead of parsing the tables.
  const std::vector<GroupRecord> *stored_groups() const;
  // With stored_groups(): for each member of each group, in order, where the member's event was
  // stored (or kNoStoredPosition: no built event has the name).
  const std::vector<uint32_t> *stored_member_positions() const;
  // Likewise for the groups' filler event (group_catalog.h, kFillerEvent).
  uint32_t stored_filler_position() const;
  // What FindName(name) answers, given the position the cache stored for it: the event there
  // when it has exactly that name (no name index needed), else FindName.
  const CatalogEvent *FindStoredMember(const std::string &name, uint32_t position) const;

 private:
  Catalog(CatalogContents contents, Status load_status, bool from_cache);
  Status load_status_;
  bool from_cache_ = false;
  // The contents and the name index are the implementer's business; see catalog.cpp.
  struct Index;
  Index *index_ = nullptr;
};

// Library initialization state set by pm_initialize / pm_init (init_state.cpp), read with
// atomics: any thread may ask at any time.
// Returns true once pm_initialize(PM_CURRENT or the host type) or pm_init
// succeeded in this process; the filter stays in force afterwards.
bool LibraryInitialized();
int ActiveFilter();

// The status bits of a pm_initialize filter (PM_VERIFIED | PM_UNVERIFIED | PM_CAVEAT).
constexpr int kStatusFilterMask = 7;

// Records a successful initialization with this status filter; later ones replace it.
PMAPI_ENGINE_EXPORT void RecordInitialization(int status_filter);

// Whether an event of `status` is listed under `status_filter`.
bool PassesFilter(EventStatus status, int status_filter);

// "verified", "unverified" or "caveat": in messages, and the first letter is pm_events_t's
// status.
const char *StatusWord(EventStatus status);

// The counters of the core PMU libpfm4 detects here (pfm_bridge.cpp): false when libpfm4
// fails to initialize or detects no core PMU. For front ends that describe the machine's
// counters (perfmon's properties), so that none of them talks to libpfm4 itself.
struct CoreCounters {
  int programmable = 0;
  int fixed = 0;
};
PMAPI_ENGINE_EXPORT bool CoreCounterCounts(CoreCounters *counters);

// Checks that `id` may be programmed on `counter` under the active filter and
// encodes it: Pmapi_NoInit before initialization; Pmapi_InvalidEvent naming
// the id and the counter otherwise. Also returns the event's short name.
Status ResolveEventForCounter(int id, int counter, perf_event_attr *attr,
                              const CatalogEvent **event);

}  // namespace pmapi
