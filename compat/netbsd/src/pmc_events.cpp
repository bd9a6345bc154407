// SPDX-License-Identifier: MIT
// <pmc_events.h>: catalog look-ups for the ids struct pmc_counter_cfg takes.
// First: the entry points must be declared with default visibility before
// any other header declares them hidden.
#include "export.h"

#include <errno.h>

#include <new>

#include "c_boundary.h"
#include "catalog/catalog.h"

int pmc_event_lookup(const char *name, pmc_evid_t *id) {
  return pmc_netbsd::ErrnoResult([&] {
    if (!name || !id) return EFAULT;
    const pmapi::CatalogEvent *event = pmapi::Catalog::Get().FindName(name);
    if (!event) return ENOENT;
    *id = static_cast<pmc_evid_t>(event->id);
    return 0;
  });
}

int pmc_event_count(void) {
  try {
    return static_cast<int>(pmapi::Catalog::Get().events().size());
  } catch (const std::bad_alloc &) {
    errno = ENOMEM;
    return -1;
  }
}

int pmc_event_get(int index, pmc_evid_t *id, const char **name, const char **description) {
  int count = pmc_event_count();
  if (index < 0 || index >= count) {
    errno = count < 0 ? ENOMEM : EINVAL;
    return -1;
  }
  const pmapi::CatalogEvent &event = pmapi::Catalog::Get().events()[static_cast<size_t>(index)];
  if (id) *id = static_cast<pmc_evid_t>(event.id);
  if (name) *name = event.short_name.c_str();
  if (description) *description = event.description.c_str();
  return 0;
}
