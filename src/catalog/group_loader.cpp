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

bool RuntimeGroupTablesNamed() {
  const char *dir = getenv(kGroupsDirVariable);
  return dir && *dir;
}

}  // namespace pmapi
