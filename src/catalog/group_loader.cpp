// The group tables' two layers (layered_tables.h): compiled-in groups/*.grp, then
// $PMAPI_GROUPS_DIR/*.grp.
#include "catalog/group_loader.h"

#include <stdlib.h>

#include "catalog/layered_tables.h"

namespace pmapi {

Status LoadGroupTables(std::vector<GroupRecord> *records) {
  static const TableLayers kLayers{kEmbeddedGroupTables, "groups/", kGroupsDirVariable, ".grp",
                                   "group "};
  return LoadLayeredTables(kLayers, ParseGroupTable, records);
}

Status LoadCompiledGroupTables(std::vector<GroupRecord> *records) {
  // No variable to name a directory (getenv("") finds nothing): the first layer alone.
  static const TableLayers kCompiledOnly{kEmbeddedGroupTables, "groups/", "", ".grp", "group "};
  return LoadLayeredTables(kCompiledOnly, ParseGroupTable, records);
}

bool RuntimeGroupTablesNamed() {
  const char *dir = getenv(kGroupsDirVariable);
  return dir && *dir;
}

}  // namespace pmapi
