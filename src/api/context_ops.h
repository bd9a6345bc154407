/* SPDX-License-Identifier: MIT */
// The operations every family shares once it has found its context (never
// null: a family without a program answers NoProgram first). Each returns
// the pmapi code and records the failure for pm_strerror.
#pragma once

#include <memory>

#include "api/export.h"
#include "core/context.h"
#include "core/counting_group.h"

namespace pmapi {

int GetProgramOf(const Context *context, pm_prog_t *prog);
int StartContext(Context *context, timebasestruct_t *stamp);
int StopContext(Context *context, timebasestruct_t *stamp);
int ResetContext(Context *context);
// group_index -1 sums every target (the CPUs of a system-wide context).
// `stamp` and `times` may be null.
int ReadContext(const Context *context, int group_index, pm_data_t *data, timebasestruct_t *stamp,
                pm_accu_time_t *times);

// A counting group's data, with its ginfo.
int ReadGroup(CountingGroup *group, pm_data_t *data, timebasestruct_t *stamp,
              pm_accu_time_t *times);

// The API edge of every read: the core's counts into the client's pm_data_t, zeroed first, and
// only when the read got as far as counting (a failed read leaves the client's struct alone).
void CopyOut(const CounterValues &values, pm_data_t *data);
// A counting group's membership as pm_data_t's ginfo reports it.
pm_ginfo_t GroupInfo(const GroupMembership &membership);

// Deletes a context its owner took out of the registry; a counting-group
// member leaves its group instead (its data is subtracted, §1.5).
void DeleteContext(std::unique_ptr<Context> context);

// Validates and translates a client program; Pmapi_InvalidArg for NULL.
Status ProgramFromClient(const pm_prog_t *prog, Program *out);

// The calling thread's own context, or null (also when its counting group was
// deleted, which drops it).
Context *MyContext();

// What refuses a first-party set (_mythread, _mygroup), in this order: the caller has a context
// already (Pmapi_ProgExists, `already_set` saying what to do), the program's translation failed
// (`parsed`). 0 when neither, else the code reported.
int RefuseMySet(const Status &parsed, const char *already_set);

// Fills `stamp` with the time now, as pm_tstart*/pm_tstop* return it.
void StampNow(timebasestruct_t *stamp);

// Pmapi_InvalidArg for a NULL pointer argument, named.
int NullArgument(const char *name);

// The family-level failure for a missing context, naming the family.
int NoProgram(const char *family);

}  // namespace pmapi
