// SPDX-License-Identifier: MIT
// pm_catalog_add_event (include/pmapi_catalog.h): the catalog's one public way to grow, by an
// event's encoding string.
#include "api/export.h"

#pragma GCC visibility push(default)
#include "pmapi_catalog.h"
#pragma GCC visibility pop

#include "api/c_boundary.h"
#include "catalog/catalog.h"

extern "C" int pm_catalog_add_event(const char *encoding, int *event_id) {
  return pmapi::Guarded([&] {
    if (!encoding) return pmapi::Report(Pmapi_InvalidArg, "the event string is NULL");
    if (!event_id) return pmapi::Report(Pmapi_InvalidArg, "event_id is NULL");
    if (!pmapi::LibraryInitialized()) {
      return pmapi::Report(Pmapi_NoInit, "call pm_initialize (or pm_init) before adding events");
    }
    int id = 0;
    pmapi::Status status = pmapi::Catalog::Get().Add(encoding, &id);
    if (!status.ok()) return pmapi::Report(status);
    *event_id = id;
    return 0;
  });
}
