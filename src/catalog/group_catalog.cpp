// SPDX-License-Identifier: MIT
// Loading the group tables and resolving their members against the event catalog.
#include "catalog/group_catalog.h"

#include "catalog/tables.h"

namespace pmapi {
namespace {

// A group can be listed when every member is there and has an id inside the lists.
bool Listable(const ResolvedGroup &group, const Catalog &catalog) {
  if (!group.missing_member.empty() || group.members.empty()) return false;
  for (const CatalogEvent *member : group.members) {
    if (static_cast<size_t>(member->id) >= catalog.listed_count()) return false;
  }
  return true;
}

}  // namespace

EventStatus GroupStatus(const std::vector<const CatalogEvent *> &members) {
  if (members.empty()) return EventStatus::kUnverified;
  bool all_verified = true;
  for (const CatalogEvent *member : members) {
    if (member->status == EventStatus::kUnverified) return EventStatus::kUnverified;
    if (member->status != EventStatus::kVerified) all_verified = false;
  }
  return all_verified ? EventStatus::kVerified : EventStatus::kCaveat;
}

std::unique_ptr<GroupCatalog> GroupCatalog::Build(const Catalog &catalog) {
  std::unique_ptr<GroupCatalog> groups(new GroupCatalog());
  std::vector<GroupRecord> records;
  const std::vector<GroupRecord> *stored = catalog.stored_groups();
  const std::vector<uint32_t> *positions = catalog.stored_member_positions();
  size_t first_position = 0;  // of the group's members in *positions
  if (stored && !RuntimeGroupTablesNamed()) {
    records = *stored;  // restored from the cache: what parsing the compiled-in tables gives
    groups->from_cache_ = true;
  } else {
    groups->load_status_ = LoadGroupTables(&records);
  }
  groups->groups_.reserve(records.size());
  for (GroupRecord &record : records) {
    ResolvedGroup group;
    for (size_t i = 0; i < record.members.size(); ++i) {
      const std::string &name = record.members[i];
      // Restored groups come with where their members were stored: no name index to build.
      const CatalogEvent *event =
          groups->from_cache_ ? catalog.FindStoredMember(name, (*positions)[first_position + i])
                              : catalog.FindName(name);
      if (!event) {
        group.missing_member = name;
        group.members.clear();
        break;
      }
      group.members.push_back(event);
    }
    first_position += record.members.size();
    group.status = GroupStatus(group.members);
    group.record = std::move(record);
    if (Listable(group, catalog) && group.record.client_id == kUnpinned) {
      group.id = static_cast<int>(groups->by_id_.size());
      groups->by_id_.push_back(groups->groups_.size());
    }
    groups->groups_.push_back(std::move(group));
  }
  // Pinned groups next: their ids are past every dense one (the loader checked), so they move
  // none; the ids between are gaps.
  groups->dense_count_ = groups->by_id_.size();
  for (size_t position = 0; position < groups->groups_.size(); ++position) {
    ResolvedGroup &group = groups->groups_[position];
    if (group.record.client_id == kUnpinned || !Listable(group, catalog)) continue;
    const size_t id = static_cast<size_t>(group.record.client_id);
    if (id < groups->dense_count_ || (id < groups->by_id_.size() && groups->by_id_[id] != kGap)) {
      continue;  // the loader refuses both; a record that got here anyway stays unlisted
    }
    if (id >= groups->by_id_.size()) groups->by_id_.resize(id + 1, kGap);
    groups->by_id_[id] = position;
    group.id = static_cast<int>(id);
  }
  const CatalogEvent *filler =
      groups->from_cache_ ? catalog.FindStoredMember(kFillerEvent, catalog.stored_filler_position())
                          : catalog.FindName(kFillerEvent);
  if (filler && static_cast<size_t>(filler->id) < catalog.listed_count()) groups->filler_ = filler;
  return groups;
}

const GroupCatalog &GroupCatalog::Get() {
  static const GroupCatalog *groups = Build(Catalog::Get()).release();  // lives until exit
  return *groups;
}

const ResolvedGroup *GroupCatalog::FindId(int id) const {
  if (id < 0 || static_cast<size_t>(id) >= by_id_.size()) return nullptr;
  const size_t position = by_id_[static_cast<size_t>(id)];
  return position == kGap ? nullptr : &groups_[position];
}

std::string GroupCatalog::UnknownId(int id) const {
  std::string known;
  if (dense_count_ > 0) known = "0.." + std::to_string(dense_count_ - 1);
  std::vector<size_t> pinned;
  for (size_t pin = dense_count_; pin < by_id_.size(); ++pin) {
    if (by_id_[pin] != kGap) pinned.push_back(pin);
  }
  for (size_t i = 0; i < pinned.size(); ++i) {
    if (!known.empty()) known += i + 1 == pinned.size() ? " and " : ", ";
    known += std::to_string(pinned[i]);
  }
  if (known.empty()) known = "none";
  return "event-group id " + std::to_string(id) + " is unknown: this machine lists groups " +
         known + (pinned.empty() ? "" : " (pinned by a site table)") +
         " (pm_initialize with PM_GET_GROUPS; docs/catalog.md)";
}

const CatalogEvent *GroupCatalog::FillerFor(const ResolvedGroup &group) const {
  if (filler_) return filler_;
  return group.members.empty() ? nullptr : group.members.front();
}

const ResolvedGroup *GroupCatalog::FindName(const std::string &short_name) const {
  for (const ResolvedGroup &group : groups_) {
    if (group.record.short_name == short_name) return &group;
  }
  return nullptr;
}

}  // namespace pmapi
