// The group tables' two layers (layered_tables.h): compiled-in groups/*.grp, then
// $PMAPI_GROUPS_DIR/*.grp; then the pinned client ids are checked against each other and against
// the dense ids of the unpinned groups.
#include "catalog/group_loader.h"

#include <stdlib.h>

#include <unordered_map>

#include "base/settings.h"
#include "catalog/layered_tables.h"

namespace pmapi {
namespace {

// Drops every pinned group whose id an unpinned group could have, or that another pin already
// took, and returns the first such error (naming the client-id line). The unpinned groups take
// 0, 1, 2, ... in table-id order, as many as there are records without a pin: counting every
// record, listable here or not, keeps a site table valid or invalid on every machine alike.
Status CheckPinnedIds(std::vector<GroupRecord> *records) {
  int unpinned = 0;
  for (const GroupRecord &record : *records) unpinned += record.client_id == kUnpinned;
  Status first_error;
  std::unordered_map<int, std::string> pinned_at;
  std::vector<GroupRecord> kept;
  kept.reserve(records->size());
  for (GroupRecord &record : *records) {
    std::string problem;
    if (record.client_id != kUnpinned && record.client_id < unpinned) {
      problem = "client id " + std::to_string(record.client_id) + " of group " + record.short_name +
                " is taken: the " + std::to_string(unpinned) +
                " groups without a client-id line have ids 0.." + std::to_string(unpinned - 1) +
                "; pin " + std::to_string(unpinned) + " or more";
    } else if (record.client_id != kUnpinned) {
      auto seen = pinned_at.emplace(record.client_id, record.client_id_origin);
      if (!seen.second) {
        problem = "client id " + std::to_string(record.client_id) + " of group " +
                  record.short_name + " is already pinned at " + seen.first->second;
      }
    }
    if (problem.empty()) {
      kept.push_back(std::move(record));
    } else if (first_error.ok()) {
      first_error = Status(Pmapi_BadCatalog, record.client_id_origin + ": " + problem);
    }
  }
  records->swap(kept);
  return first_error;
}

Status LoadAndCheck(const TableLayers &layers, std::vector<GroupRecord> *records) {
  Status status = LoadLayeredTables(layers, ParseGroupTable, records);
  Status pins = CheckPinnedIds(records);
  return status.ok() ? pins : status;
}

}  // namespace

Status LoadGroupTables(std::vector<GroupRecord> *records) {
  static const TableLayers kLayers{kEmbeddedGroupTables,  "groups/", kGroupsDirVariable,
                                   &Settings::groups_dir, ".grp",    "group "};
  return LoadAndCheck(kLayers, records);
}

Status LoadCompiledGroupTables(std::vector<GroupRecord> *records) {
  // No setting names a directory: the first layer alone.
  static const TableLayers kCompiledOnly{
      kEmbeddedGroupTables, "groups/", "", nullptr, ".grp", "group "};
  return LoadAndCheck(kCompiledOnly, records);
}

bool RuntimeGroupTablesNamed() { return !CurrentSettings().groups_dir.empty(); }

}  // namespace pmapi
