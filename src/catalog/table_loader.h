// Gathers the table records: the compiled-in events/*.tbl, then $PMAPI_EVENTS_DIR/*.tbl, with
// the override rules of events/README.md.
#pragma once

#include <vector>

#include "base/status.h"
#include "catalog/table_parser.h"

namespace pmapi {

struct TableLayers;

// Where the event tables come from (the catalog cache key reads the run-time ones too).
const TableLayers &EventTableLayers();

// Fills `records` sorted by id. Returns the first error met (file and line in the detail);
// the records are then still the usable ones (a bad file contributes nothing).
Status LoadEventTables(std::vector<TableRecord> *records);

}  // namespace pmapi
