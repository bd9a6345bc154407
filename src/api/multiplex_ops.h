/* SPDX-License-Identifier: MIT */
// What every _mx/_mm family shares: turning a pm_prog_mx_t / pm_prog_mm_t into a multiplexed
// Program, handing programs back in memory the caller frees, and filling pm_data_mx_t (whose
// accu_set the library allocates and the caller frees, as on AIX).
#pragma once

#include "api/export.h"
#include "base/status.h"
#include "core/context.h"
#include "core/counting_group.h"

namespace pmapi {

// Validates every set (a failing set is named) and builds the carrier program; nothing is
// opened. Pmapi_InvalidArg for NULL, for no set, for more than kMaxMultiplexSets sets and for a
// negative slice.
Status ProgramFromMx(const pm_prog_mx_t *prog, Program *out);
Status ProgramFromMm(const pm_prog_mm_t *prog, Program *out);

// `program`, as set, with `counting` in mode.b.count; events_set / prog_set malloc'ed.
int GetProgramMx(const Program &program, bool counting, pm_prog_mx_t *prog);
int GetProgramMm(const Program &program, bool counting, pm_prog_mm_t *prog);

// Each set's counts and counting time for one target (group_index) or summed over all (-1).
// `stamp` may be null. On failure data->accu_set is NULL and nothing stays allocated.
int ReadContextMx(const Context *context, int group_index, pm_data_mx_t *data,
                  timebasestruct_t *stamp);
// A counting group's sets, with its ginfo.
int ReadGroupMx(CountingGroup *group, pm_data_mx_t *data, timebasestruct_t *stamp);

}  // namespace pmapi
