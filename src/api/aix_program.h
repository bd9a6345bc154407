/* SPDX-License-Identifier: MIT */
// Turning a client's pm_prog_t into the core's Program at the API edge: the mode checked, the
// event and group ids resolved through the catalog, so that the core never sees an id to look up.
#pragma once

#include "base/status.h"
#include "core/program.h"
#include "pmapi.h"

namespace pmapi {

// Validates `prog` against the initialized catalog: thresholds, privilege levels, event ids per
// counter (COUNT_NOTHING skipped), a group id's members with is_group.
Status ProgramFromAix(const pm_prog_t &prog, Program *out);

}  // namespace pmapi
