/* SPDX-License-Identifier: MIT */
// The event groups as this machine sees them: every record of the groups/ tables, its members
// looked up in the event catalog, and a status that follows the members'.
//
// Built once per process on first use (pm_initialize with PM_GET_GROUPS, or a program with
// mode.b.is_group), never before: clients that use no groups pay nothing for them. Entries live
// until exit; the pm_groups_t lists point into them.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "base/status.h"
#include "catalog/catalog.h"
#include "catalog/tables.h"

namespace pmapi {

struct ResolvedGroup {
  GroupRecord record;
  // The group's id for clients: its index in the event_groups pm_initialize returns under the
  // full filter. The id a site table pins (GroupRecord::client_id); otherwise dense from 0 over
  // the unpinned groups this machine can list (every member present and listed), in table-id
  // order. -1 for a group this machine cannot list.
  int id = -1;
  // Catalog entries of the members, in counter order; empty when one is missing.
  std::vector<const CatalogEvent *> members;
  // The first member the catalog lacks on this machine ("" when all are there). Such a group
  // cannot be programmed and is listed under no filter.
  std::string missing_member;
  // Verified if every member is; caveat if every member is verified or caveat; else unverified
  // (always unverified when a member is missing).
  EventStatus status = EventStatus::kUnverified;
};

// The event a listed group names on its free counters (GroupCatalog::FillerFor), when the
// catalog has it.
constexpr const char *kFillerEvent = "cpu-migrations";

// The status a group of these members gets (see ResolvedGroup::status).
EventStatus GroupStatus(const std::vector<const CatalogEvent *> &members);

class GroupCatalog {
 public:
  // The process-wide groups over Catalog::Get(), built on first call (thread-safe).
  static const GroupCatalog &Get();
  // Groups read afresh from the tables and the environment over `catalog` (tests).
  static std::unique_ptr<GroupCatalog> Build(const Catalog &catalog);

  // A non-ok status if a groups/ table or one under $PMAPI_GROUPS_DIR failed to parse.
  const Status &load_status() const { return load_status_; }
  // Every group, by increasing table id (record.id); the listable unpinned ones have ids 0, 1,
  // ... in this order.
  const std::vector<ResolvedGroup> &groups() const { return groups_; }
  // Every client id is below this: the dense ids, then up to the largest listable pinned id.
  // Ids in between that no group has are gaps (FindId gives nullptr).
  size_t id_limit() const { return by_id_.size(); }
  // By client id (ResolvedGroup::id), not table id; nullptr for an id no listable group has.
  const ResolvedGroup *FindId(int id) const;
  // "event-group id N is unknown: this machine lists groups 0..10, 60 and 150 (...)".
  std::string UnknownId(int id) const;
  // The event a listed group names on the counters its members leave free, so that clients
  // looking every events[counter] up in the lists find a real entry: cpu-migrations (a kernel
  // software event that any counter can take and that rarely counts), or the group's first
  // member if the catalog lacks it. Counting a group by id never opens it.
  const CatalogEvent *FillerFor(const ResolvedGroup &group) const;
  // cpu-migrations when the catalog lists it, else nullptr: what gap entries name.
  const CatalogEvent *filler() const { return filler_; }
  const ResolvedGroup *FindName(const std::string &short_name) const;
  // Whether the records came from the catalog cache (Catalog::stored_groups) rather than from
  // parsing the tables.
  bool from_cache() const { return from_cache_; }

 private:
  GroupCatalog() = default;
  bool from_cache_ = false;
  Status load_status_;
  std::vector<ResolvedGroup> groups_;
  std::vector<size_t> by_id_;  // by_id_[id]: position in groups_, or kGap
  size_t dense_count_ = 0;     // ids 0..dense_count_-1 are the unpinned groups
  static constexpr size_t kGap = static_cast<size_t>(-1);
  const CatalogEvent *filler_ = nullptr;
};

}  // namespace pmapi
