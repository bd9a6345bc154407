// What pm_initialize / pm_init leave behind for the rest of the library: whether they
// succeeded and the status filter in force. Read with atomics: any thread may ask at any time.
#pragma once

#include "catalog/catalog.h"

namespace pmapi {

// The status bits of a pm_initialize filter (PM_VERIFIED | PM_UNVERIFIED | PM_CAVEAT).
constexpr int kStatusFilterMask = 7;

// Records a successful initialization with this status filter; later ones replace it.
void RecordInitialization(int status_filter);

// Whether an event of `status` is listed under `status_filter`.
bool PassesFilter(EventStatus status, int status_filter);

}  // namespace pmapi
