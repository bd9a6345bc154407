// The event catalog: every event this machine can name, with a stable id,
// an AIX-style short name, a description, how to encode it for
// perf_event_open, and its status here (verified / unverified / caveat).
//
// Built once per process on first use from: the events/ tables (compiled in,
// plus $PMAPI_EVENTS_DIR/*.tbl), every event of the PMUs libpfm4 detects,
// the kernel's software events, the sysfs PMU events and the tracefs
// tracepoints. Entries and their strings live until exit: the lists
// pm_initialize hands out point into them.
#pragma once

#include <linux/perf_event.h>

#include <string>
#include <vector>

#include "core/status.h"

namespace pmapi {

enum class EventSource { kTable, kPfm, kSoftware, kSysfsPmu, kTracepoint };

enum class EventStatus { kVerified, kUnverified, kCaveat };

struct CatalogEvent {
  int id = 0;
  std::string short_name;   // "PM_CYC", "syscalls:sys_enter_getppid", "msr/tsc"
  std::string long_name;
  std::string description;  // says why when unverified or approximate
  std::string encoding;     // the string the source understands
  EventSource source = EventSource::kTable;
  EventStatus status = EventStatus::kUnverified;
};

class Catalog {
 public:
  // The process-wide catalog, built on first call (thread-safe).
  static const Catalog &Get();

  // A non-ok status if a table under $PMAPI_EVENTS_DIR (or a compiled-in
  // one) failed to parse; the detail names file and line.
  const Status &load_status() const { return load_status_; }

  const std::vector<CatalogEvent> &events() const { return events_; }
  const CatalogEvent *FindId(int id) const;
  // Exact short name first, then case-insensitive.
  const CatalogEvent *FindName(const std::string &name) const;

  // Fills type, config, config1, config2 (and nothing about mode) for
  // perf_event_open.
  Status Encode(const CatalogEvent &event, perf_event_attr *attr) const;

 private:
  Catalog();
  Status load_status_;
  std::vector<CatalogEvent> events_;
  // Indexes are the implementer's business; see catalog.cpp.
  struct Index;
  Index *index_ = nullptr;
};

// Library initialization state set by pm_initialize / pm_init.
// Returns true once pm_initialize(PM_CURRENT or the host type) or pm_init
// succeeded in this process; the filter stays in force afterwards.
bool LibraryInitialized();
int ActiveFilter();

// Checks that `id` may be programmed on `counter` under the active filter and
// encodes it: Pmapi_NoInit before initialization; Pmapi_InvalidEvent naming
// the id and the counter otherwise. Also returns the event's short name.
Status ResolveEventForCounter(int id, int counter, perf_event_attr *attr,
                              const CatalogEvent **event);

}  // namespace pmapi
