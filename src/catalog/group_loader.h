// Gathers the group records: the compiled-in groups/*.grp, then $PMAPI_GROUPS_DIR/*.grp, with
// the same override rules as the event tables (groups/README.md).
#pragma once

#include <vector>

#include "base/status.h"
#include "catalog/group_parser.h"

namespace pmapi {

// Fills `records` sorted by id. Returns the first error met (file and line in the detail);
// the records are then still the usable ones (a bad file contributes nothing).
Status LoadGroupTables(std::vector<GroupRecord> *records);

// The compiled-in groups/*.grp alone, whatever $PMAPI_GROUPS_DIR says: what the catalog cache
// stores (it holds nothing the environment chose).
Status LoadCompiledGroupTables(std::vector<GroupRecord> *records);

// Whether $PMAPI_GROUPS_DIR names a directory (is set and not ""): then the groups depend on the
// environment, and the compiled-in ones the catalog cache stores are not the whole story.
bool RuntimeGroupTablesNamed();

}  // namespace pmapi
