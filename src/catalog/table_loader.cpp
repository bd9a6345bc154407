// The event tables' two layers (layered_tables.h): compiled-in events/*.tbl, then
// $PMAPI_EVENTS_DIR/*.tbl.
#include "catalog/table_loader.h"

#include "base/settings.h"
#include "catalog/layered_tables.h"

namespace pmapi {

const TableLayers &EventTableLayers() {
  static const TableLayers kLayers{kEmbeddedEventTables,  "events/", kEventsDirVariable,
                                   &Settings::events_dir, ".tbl",    ""};
  return kLayers;
}

Status LoadEventTables(std::vector<TableRecord> *records) {
  return LoadLayeredTables(EventTableLayers(), ParseEventTable, records);
}

}  // namespace pmapi
