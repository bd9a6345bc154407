// SPDX-License-Identifier: MIT
// perfmon_status_name: the Fuchsia layers' one table of status names (fuchsia_common).
#include "lib/perfmon/status.h"

#include "fuchsia_common/zx_status_names.h"

extern "C" const char *perfmon_status_name(zx_status_t status) {
  return fuchsia_common::ZxStatusNameOf(status);
}
