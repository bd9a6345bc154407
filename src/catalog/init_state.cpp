// SPDX-License-Identifier: MIT
// Initialization state and the event check every set_program call makes.
#include "catalog/catalog.h"

#include "catalog/event_sources.h"
#include "catalog/tables.h"

#include <stdio.h>

#include <atomic>
#include <string>

#include "pmapi.h"

namespace pmapi {
namespace {

// The filter is stored before the flag, with release order, so a reader that sees the flag
// also sees the filter it goes with.
std::atomic<int> g_status_filter{0};
std::atomic<bool> g_initialized{false};

}  // namespace

const char *StatusWord(EventStatus status) {
  switch (status) {
    case EventStatus::kVerified:
      return "verified";
    case EventStatus::kUnverified:
      return "unverified";
    case EventStatus::kCaveat:
      return "caveat";
  }
  return "unknown";
}

void RecordInitialization(int status_filter) {
  g_status_filter.store(status_filter & kStatusFilterMask, std::memory_order_release);
  g_initialized.store(true, std::memory_order_release);
}

bool PassesFilter(EventStatus status, int status_filter) {
  switch (status) {
    case EventStatus::kVerified:
      return status_filter & PM_VERIFIED;
    case EventStatus::kUnverified:
      return status_filter & PM_UNVERIFIED;
    case EventStatus::kCaveat:
      return status_filter & PM_CAVEAT;
  }
  return false;
}

bool LibraryInitialized() { return g_initialized.load(std::memory_order_acquire); }

int ActiveFilter() { return g_status_filter.load(std::memory_order_acquire); }

Status ResolveEventForCounter(int id, int counter, perf_event_attr *attr,
                              const CatalogEvent **event) {
  if (!LibraryInitialized()) {
    return Status(Pmapi_NoInit, "call pm_initialize (or pm_init) before programming events");
  }
  if (counter < 0 || counter >= MAX_COUNTERS) {
    return Status(Pmapi_InvalidArg, "counter " + std::to_string(counter) + " is outside 0.." +
                                        std::to_string(MAX_COUNTERS - 1));
  }
  int filter = ActiveFilter();
  const CatalogEvent *found = Catalog::Get().FindId(id);
  if (!found || !PassesFilter(found->status, filter)) {
    std::string detail = "event id " + std::to_string(id) + " on counter " +
                         std::to_string(counter) +
                         " is not in the list pm_initialize returned for filter " +
                         Hex(static_cast<unsigned>(filter));
    if (found) {
      detail += " (it is " + found->short_name + ", whose status here is " +
                StatusWord(found->status) + ")";
    }
    return Status(Pmapi_InvalidEvent, detail);
  }
  // The kernel would open it and count 0 (JudgeArmEvent, event_sources.h): refused here instead.
  std::string lacks;
  if (PmuLacksEvent(*found, &lacks)) {
    return Status(Pmapi_NoHardware, "event " + found->short_name + " on counter " +
                                        std::to_string(counter) + ": " + lacks);
  }
  if (attr) {
    Status status = Catalog::Get().Encode(*found, attr);
    if (!status.ok()) return status;
  }
  if (event) *event = found;
  return Status::Ok();
}

}  // namespace pmapi
