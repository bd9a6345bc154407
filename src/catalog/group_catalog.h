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

#include "catalog/catalog.h"
#include "catalog/group_parser.h"
#include "core/status.h"

namespace pmapi {

struct ResolvedGroup {
  GroupRecord record;
  // Catalog entries of the members, in counter order; empty when one is missing.
  std::vector<const CatalogEvent *> members;
  // The first member the catalog lacks on this machine ("" when all are there). Such a group
  // cannot be programmed and is listed under no filter.
  std::string missing_member;
  // Verified if every member is; caveat if every member is verified or caveat; else unverified
  // (always unverified when a member is missing).
  EventStatus status = EventStatus::kUnverified;
};

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
  // Every group, by increasing id.
  const std::vector<ResolvedGroup> &groups() const { return groups_; }
  const ResolvedGroup *FindId(int id) const;
  const ResolvedGroup *FindName(const std::string &short_name) const;

 private:
  GroupCatalog() = default;
  Status load_status_;
  std::vector<ResolvedGroup> groups_;
};

}  // namespace pmapi
