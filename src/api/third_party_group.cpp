// SPDX-License-Identifier: MIT
// The third-party counting-group families: _group(pid, tid) and
// _pgroup(pid, tid, ptid). The group is the target thread and everything it
// starts afterwards (exec'd programs included), or with mode.b.process every
// thread of the target's process. The target also gets its own context, so
// the _thread family reads the member's own data (§5.7).
#include "api/context_ops.h"
#include "api/family_entry_points.h"
#include "api/multiplex_ops.h"
#include "api/targets.h"
#include "api/third_party_target.h"
#include "base/last_error.h"
#include "core/registry.h"

using namespace pmapi;

namespace group_family {
namespace {

constexpr const char kFamily[] = "third-party counting group";

// Creates the group for a program already translated (plain, _mx or _mm).
Status CreateGroupFor(pid_t pid, tid_t tid, Program program) {
  Registry &registry = Registry::Get();
  Status status = registry.CheckThreadAllowed();
  if (status.ok()) status = TargetExists(pid, tid);
  if (!status.ok()) return status;
  std::vector<GroupTarget> roots{ThreadTarget(pid, tid)};
  if (program.process_level()) {
    status = ProcessThreads(pid, tid, &roots);
    if (!status.ok()) return status;
    for (const GroupTarget &root : roots) {
      if (registry.FindTarget(pid, root.pid)) {
        return Status(Pmapi_ProgExists, root.description +
                                            " already has a context; a process-level group "
                                            "needs every thread free of one");
      }
    }
  }
  const bool start = program.mode().b.count;
  std::shared_ptr<CountingGroup> group;
  status = CountingGroup::Create(program, roots, start, &group);
  if (!status.ok()) return status;
  std::unique_ptr<Context> own;
  status = Context::Create(std::move(program), {ThreadTarget(pid, tid)}, false, &own);
  if (status.ok()) status = group->Join(own.get(), start, CountingGroup::Joining::kRoot);
  if (status.ok()) status = registry.AdoptTarget(pid, tid, std::move(own));
  if (!status.ok()) group->Delete();
  return status;
}

// Creates the group for a program already translated, whose translation gave `parsed`.
int SetParsed(pid_t pid, tid_t tid, ptid_t ptid, const Status &parsed, Program program) {
  return WithThirdPartyTarget(pid, tid, ptid, [&](Registry &, Context *existing) {
    if (existing) return AlreadyProgrammed(pid, tid, "pm_delete_program_group");
    if (!parsed.ok()) return Report(parsed);
    return Report(CreateGroupFor(pid, tid, std::move(program)));
  });
}

// Runs `op` on the target's group (and its own context) under the
// third-party lock.
template <typename Op>
int WithGroup(pid_t pid, tid_t tid, ptid_t ptid, Op op) {
  return WithThirdPartyTarget(pid, tid, ptid, [&](Registry &, Context *own) {
    if (!own) return NoProgram(kFamily);
    if (!own->group()) {
      return Report(Pmapi_NoSetProg, "thread " + std::to_string(tid) + " of process " +
                                         std::to_string(pid) +
                                         " has a _thread context but is not in a counting group");
    }
    return op(own->group(), own);
  });
}

int Delete(pid_t pid, tid_t tid, ptid_t ptid) {
  return WithGroup(pid, tid, ptid, [&](CountingGroup *group, Context *) {
    group->Delete();
    Registry::Get().DropTarget(pid, tid);
    return 0;
  });
}

int Get(pid_t pid, tid_t tid, ptid_t ptid, pm_prog_t *prog) {
  return WithGroup(pid, tid, ptid, [&](CountingGroup *group, Context *) {
    if (!prog) return Report(Pmapi_InvalidArg, "prog is NULL");
    group->program().ToAix(group->counting(), prog);
    return 0;
  });
}

int Start(pid_t pid, tid_t tid, ptid_t ptid, timebasestruct_t *time) {
  return WithGroup(pid, tid, ptid, [&](CountingGroup *group, Context *own) {
    int rc = Report(group->Start(own));
    if (rc == 0 && time) StampNow(time);
    return rc;
  });
}

int Stop(pid_t pid, tid_t tid, ptid_t ptid, timebasestruct_t *time) {
  return WithGroup(pid, tid, ptid, [&](CountingGroup *group, Context *own) {
    int rc = Report(group->Stop(own));
    if (rc == 0 && time) StampNow(time);
    return rc;
  });
}

int Reset(pid_t pid, tid_t tid, ptid_t ptid) {
  return WithGroup(pid, tid, ptid,
                   [&](CountingGroup *group, Context *own) { return Report(group->Reset(own)); });
}

int Read(pid_t pid, tid_t tid, ptid_t ptid, pm_data_t *data, timebasestruct_t *time,
         pm_accu_time_t *times) {
  return WithGroup(pid, tid, ptid, [&](CountingGroup *group, Context *) {
    return ReadGroup(group, data, time, times);
  });
}

// The multiplexed (_mx) and multi-mode (_mm) forms: the same group, its program carrying every
// set (the group's inherited counters and the target's own context are both multiplexed);
// start, stop, reset and delete are the plain calls.

int GetMx(pid_t pid, tid_t tid, ptid_t ptid, pm_prog_mx_t *prog) {
  return WithGroup(pid, tid, ptid, [&](CountingGroup *group, Context *) {
    return GetProgramMx(group->program(), group->counting(), prog);
  });
}

int GetMm(pid_t pid, tid_t tid, ptid_t ptid, pm_prog_mm_t *prog) {
  return WithGroup(pid, tid, ptid, [&](CountingGroup *group, Context *) {
    return GetProgramMm(group->program(), group->counting(), prog);
  });
}

int ReadMx(pid_t pid, tid_t tid, ptid_t ptid, pm_data_mx_t *data, timebasestruct_t *time) {
  return WithGroup(pid, tid, ptid,
                   [&](CountingGroup *group, Context *) { return ReadGroupMx(group, data, time); });
}

}  // namespace
}  // namespace group_family

PMAPI_THIRD_PARTY_ENTRY_POINTS(_group, _pgroup, group_family)
