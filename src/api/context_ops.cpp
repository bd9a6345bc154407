// SPDX-License-Identifier: MIT
#include "api/context_ops.h"

#include <string.h>

#include "api/aix_program.h"
#include "api/timebase.h"
#include "base/last_error.h"
#include "core/registry.h"

namespace pmapi {
namespace {

void Stamp(timebasestruct_t *stamp) {
  if (stamp) StampNow(stamp);
}

int FinishRead(const Status &status, const CountTimes &counted, timebasestruct_t *stamp,
               pm_accu_time_t *times) {
  int rc = Report(status);
  Stamp(stamp);
  if (times) {
    // accu_timebase: time the counters were enabled; PURR and SPURR (POWER
    // processor-utilization registers): the time they actually ran.
    TicksToTimebase(counted.enabled, &times->accu_timebase);
    TicksToTimebase(counted.running, &times->accu_purr);
    TicksToTimebase(counted.running, &times->accu_spurr);
  }
  return rc;
}

}  // namespace

void StampNow(timebasestruct_t *stamp) { TicksToTimebase(MonotonicNanos(), stamp); }

Context *MyContext() {
  Context *mine = t_my_context;
  // A deleted counting group took its members' contexts with it (§1.3); the
  // member's thread drops what is left of its own at its next call.
  if (mine && mine->group() && mine->group()->revoked()) {
    Registry::Get().DropMyThread();
    return nullptr;
  }
  return mine;
}

int RefuseMySet(const Status &parsed, const char *already_set) {
  if (MyContext()) return Report(Pmapi_ProgExists, already_set);
  return parsed.ok() ? 0 : Report(parsed);
}

int NullArgument(const char *name) { return Report(Status(Pmapi_InvalidArg, {name, " is NULL"})); }

int NoProgram(const char *family) {
  return Report(Status(Pmapi_NoSetProg, {"no ", family, " program is set"}));
}

Status ProgramFromClient(const pm_prog_t *prog, Program *out) {
  if (!prog) return Status(Pmapi_InvalidArg, "prog is NULL");
  return ProgramFromAix(*prog, out);
}

int GetProgramOf(const Context *context, pm_prog_t *prog) {
  if (!prog) return Report(Pmapi_InvalidArg, "prog is NULL");
  context->program().ToAix(context->counting(), prog);
  return 0;
}

int StartContext(Context *context, timebasestruct_t *stamp) {
  CountingGroup *group = context->group();
  int rc = Report(group ? group->MemberStart(context) : context->Start());
  if (rc == 0) Stamp(stamp);
  return rc;
}

int StopContext(Context *context, timebasestruct_t *stamp) {
  CountingGroup *group = context->group();
  int rc = Report(group ? group->MemberStop(context) : context->Stop());
  if (rc == 0) Stamp(stamp);
  return rc;
}

int ResetContext(Context *context) {
  CountingGroup *group = context->group();
  return Report(group ? group->MemberReset(context) : context->Reset());
}

void DeleteContext(std::unique_ptr<Context> context) {
  if (context && context->group()) context->group()->Depart(std::move(context));
}

void CopyOut(const CounterValues &values, pm_data_t *data) {
  if (!values.filled) return;
  memset(data, 0, sizeof *data);
  memcpy(data->accu, values.accu, sizeof data->accu);
}

pm_ginfo_t GroupInfo(const GroupMembership &membership) {
  pm_ginfo_t info;
  memset(&info, 0, sizeof info);
  info.members = membership.members;
  info.flags.b.process = membership.process_level;
  info.flags.b.consistent = membership.consistent;
  return info;
}

int ReadContext(const Context *context, int group_index, pm_data_t *data, timebasestruct_t *stamp,
                pm_accu_time_t *times) {
  if (!data) return Report(Pmapi_InvalidArg, "data is NULL");
  CountTimes counted;
  CounterValues values;
  Status status = context->Read(group_index, &values, times ? &counted : nullptr);
  CopyOut(values, data);
  return FinishRead(status, counted, stamp, times);
}

int ReadGroup(CountingGroup *group, pm_data_t *data, timebasestruct_t *stamp,
              pm_accu_time_t *times) {
  CountTimes counted;
  CounterValues values;
  GroupMembership membership;
  Status status = group->Read(data ? &values : nullptr, &membership, times ? &counted : nullptr);
  if (values.filled) {
    CopyOut(values, data);
    data->ginfo = GroupInfo(membership);
  }
  return FinishRead(status, counted, stamp, times);
}

}  // namespace pmapi
