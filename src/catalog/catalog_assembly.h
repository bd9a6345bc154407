// Building the catalog's contents from its sources: the tables, libpfm4, sysfs PMUs and
// tracefs, with statuses probed from the kernel. What a cold pm_initialize costs without the
// cache (docs/catalog.md has the numbers).
#pragma once

#include "base/status.h"
#include "catalog/catalog_contents.h"

namespace pmapi {

// Fills `contents` from the sources through the current kernel seam. Returns the table load
// status (non-ok when a table failed to parse; the contents are then built from the usable
// records).
Status AssembleCatalog(CatalogContents *contents);

}  // namespace pmapi
