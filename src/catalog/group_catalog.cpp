// Loading the group tables and resolving their members against the event catalog.
#include "catalog/group_catalog.h"

#include "catalog/group_loader.h"

namespace pmapi {

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
  groups->load_status_ = LoadGroupTables(&records);
  groups->groups_.reserve(records.size());
  for (GroupRecord &record : records) {
    ResolvedGroup group;
    for (const std::string &name : record.members) {
      const CatalogEvent *event = catalog.FindName(name);
      if (!event) {
        group.missing_member = name;
        group.members.clear();
        break;
      }
      group.members.push_back(event);
    }
    group.status = GroupStatus(group.members);
    group.record = std::move(record);
    groups->groups_.push_back(std::move(group));
  }
  return groups;
}

const GroupCatalog &GroupCatalog::Get() {
  static const GroupCatalog *groups = Build(Catalog::Get()).release();  // lives until exit
  return *groups;
}

const ResolvedGroup *GroupCatalog::FindId(int id) const {
  for (const ResolvedGroup &group : groups_) {
    if (group.record.id == id) return &group;
  }
  return nullptr;
}

const ResolvedGroup *GroupCatalog::FindName(const std::string &short_name) const {
  for (const ResolvedGroup &group : groups_) {
    if (group.record.short_name == short_name) return &group;
  }
  return nullptr;
}

}  // namespace pmapi
