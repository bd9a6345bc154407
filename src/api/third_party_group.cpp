// The third-party counting-group families: _group(pid, tid) and
// _pgroup(pid, tid, ptid). The group is the target thread and everything it
// starts afterwards (exec'd programs included), or with mode.b.process every
// thread of the target's process. The target also gets its own context, so
// the _thread family reads the member's own data (§5.7).
#include <mutex>

#include "api/c_boundary.h"
#include "api/context_ops.h"
#include "api/multiplex_ops.h"
#include "api/targets.h"
#include "base/last_error.h"
#include "core/registry.h"

using namespace pmapi;

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

Status CreateGroup(pid_t pid, tid_t tid, const pm_prog_t *prog) {
  Program program;
  Status status = ProgramFromClient(prog, &program);
  if (!status.ok()) return status;
  return CreateGroupFor(pid, tid, std::move(program));
}

int Set(pid_t pid, tid_t tid, ptid_t ptid, pm_prog_t *prog) {
  Status status = CheckTarget(pid, tid, ptid);
  if (!status.ok()) return Report(status);
  Registry &registry = Registry::Get();
  std::lock_guard<std::mutex> lock(registry.third_party_calls());
  if (registry.FindTarget(pid, tid)) {
    return Report(Pmapi_ProgExists, "thread " + std::to_string(tid) + " of process " +
                                        std::to_string(pid) +
                                        " is already programmed; pm_delete_program_group first");
  }
  return Report(CreateGroup(pid, tid, prog));
}

// Runs `op` on the target's group (and its own context) under the
// third-party lock.
template <typename Op>
int WithGroup(pid_t pid, tid_t tid, ptid_t ptid, Op op) {
  Status status = CheckTarget(pid, tid, ptid);
  if (!status.ok()) return Report(status);
  Registry &registry = Registry::Get();
  std::lock_guard<std::mutex> lock(registry.third_party_calls());
  Context *own = registry.FindTarget(pid, tid);
  if (!own) return NoProgram(kFamily);
  if (!own->group()) {
    return Report(Pmapi_NoSetProg, "thread " + std::to_string(tid) + " of process " +
                                       std::to_string(pid) +
                                       " has a _thread context but is not in a counting group");
  }
  return op(own->group(), own);
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

}  // namespace

extern "C" {

int pm_set_program_group(pid_t pid, tid_t tid, pm_prog_t *prog) {
  return Guarded([&] { return Set(pid, tid, 0, prog); });
}
int pm_get_program_group(pid_t pid, tid_t tid, pm_prog_t *prog) {
  return Guarded([&] { return Get(pid, tid, 0, prog); });
}
int pm_delete_program_group(pid_t pid, tid_t tid) {
  return Guarded([&] { return Delete(pid, tid, 0); });
}
int pm_start_group(pid_t pid, tid_t tid) {
  return Guarded([&] { return Start(pid, tid, 0, nullptr); });
}
int pm_tstart_group(pid_t pid, tid_t tid, timebasestruct_t *time) {
  return Guarded([&] { return time ? Start(pid, tid, 0, time) : NullArgument("time"); });
}
int pm_stop_group(pid_t pid, tid_t tid) {
  return Guarded([&] { return Stop(pid, tid, 0, nullptr); });
}
int pm_tstop_group(pid_t pid, tid_t tid, timebasestruct_t *time) {
  return Guarded([&] { return time ? Stop(pid, tid, 0, time) : NullArgument("time"); });
}
int pm_reset_data_group(pid_t pid, tid_t tid) {
  return Guarded([&] { return Reset(pid, tid, 0); });
}
int pm_get_data_group(pid_t pid, tid_t tid, pm_data_t *data) {
  return Guarded([&] { return Read(pid, tid, 0, data, nullptr, nullptr); });
}
int pm_get_tdata_group(pid_t pid, tid_t tid, pm_data_t *data, timebasestruct_t *time) {
  return Guarded(
      [&] { return time ? Read(pid, tid, 0, data, time, nullptr) : NullArgument("time"); });
}
int pm_get_Tdata_group(pid_t pid, tid_t tid, pm_data_t *data, pm_accu_time_t *times) {
  return Guarded(
      [&] { return times ? Read(pid, tid, 0, data, nullptr, times) : NullArgument("times"); });
}

int pm_set_program_pgroup(pid_t pid, tid_t tid, ptid_t ptid, pm_prog_t *prog) {
  return Guarded([&] { return Set(pid, tid, ptid, prog); });
}
int pm_get_program_pgroup(pid_t pid, tid_t tid, ptid_t ptid, pm_prog_t *prog) {
  return Guarded([&] { return Get(pid, tid, ptid, prog); });
}
int pm_delete_program_pgroup(pid_t pid, tid_t tid, ptid_t ptid) {
  return Guarded([&] { return Delete(pid, tid, ptid); });
}
int pm_start_pgroup(pid_t pid, tid_t tid, ptid_t ptid) {
  return Guarded([&] { return Start(pid, tid, ptid, nullptr); });
}
int pm_tstart_pgroup(pid_t pid, tid_t tid, ptid_t ptid, timebasestruct_t *time) {
  return Guarded([&] { return time ? Start(pid, tid, ptid, time) : NullArgument("time"); });
}
int pm_stop_pgroup(pid_t pid, tid_t tid, ptid_t ptid) {
  return Guarded([&] { return Stop(pid, tid, ptid, nullptr); });
}
int pm_tstop_pgroup(pid_t pid, tid_t tid, ptid_t ptid, timebasestruct_t *time) {
  return Guarded([&] { return time ? Stop(pid, tid, ptid, time) : NullArgument("time"); });
}
int pm_reset_data_pgroup(pid_t pid, tid_t tid, ptid_t ptid) {
  return Guarded([&] { return Reset(pid, tid, ptid); });
}
int pm_get_data_pgroup(pid_t pid, tid_t tid, ptid_t ptid, pm_data_t *data) {
  return Guarded([&] { return Read(pid, tid, ptid, data, nullptr, nullptr); });
}
int pm_get_tdata_pgroup(pid_t pid, tid_t tid, ptid_t ptid, pm_data_t *data,
                        timebasestruct_t *time) {
  return Guarded(
      [&] { return time ? Read(pid, tid, ptid, data, time, nullptr) : NullArgument("time"); });
}
int pm_get_Tdata_pgroup(pid_t pid, tid_t tid, ptid_t ptid, pm_data_t *data, pm_accu_time_t *times) {
  return Guarded(
      [&] { return times ? Read(pid, tid, ptid, data, nullptr, times) : NullArgument("times"); });
}

}  // extern "C"

// The multiplexed (_mx) and multi-mode (_mm) forms: the same group, its program carrying every
// set (the group's inherited counters and the target's own context are both multiplexed);
// start, stop, reset and delete are the plain calls.
namespace {

int SetMx(pid_t pid, tid_t tid, ptid_t ptid, const Status &parsed, Program program) {
  Status status = CheckTarget(pid, tid, ptid);
  if (!status.ok()) return Report(status);
  Registry &registry = Registry::Get();
  std::lock_guard<std::mutex> lock(registry.third_party_calls());
  if (registry.FindTarget(pid, tid)) {
    return Report(Pmapi_ProgExists, "thread " + std::to_string(tid) + " of process " +
                                        std::to_string(pid) +
                                        " is already programmed; pm_delete_program_group first");
  }
  if (!parsed.ok()) return Report(parsed);
  return Report(CreateGroupFor(pid, tid, std::move(program)));
}

int SetGroupMx(pid_t pid, tid_t tid, ptid_t ptid, pm_prog_mx_t *prog) {
  Program program;
  Status status = ProgramFromMx(prog, &program);
  return SetMx(pid, tid, ptid, status, std::move(program));
}

int SetGroupMm(pid_t pid, tid_t tid, ptid_t ptid, pm_prog_mm_t *prog) {
  Program program;
  Status status = ProgramFromMm(prog, &program);
  return SetMx(pid, tid, ptid, status, std::move(program));
}

int GetGroupMx(pid_t pid, tid_t tid, ptid_t ptid, pm_prog_mx_t *prog) {
  return WithGroup(pid, tid, ptid, [&](CountingGroup *group, Context *) {
    return GetProgramMx(group->program(), group->counting(), prog);
  });
}

int GetGroupMm(pid_t pid, tid_t tid, ptid_t ptid, pm_prog_mm_t *prog) {
  return WithGroup(pid, tid, ptid, [&](CountingGroup *group, Context *) {
    return GetProgramMm(group->program(), group->counting(), prog);
  });
}

int ReadGroupMxOf(pid_t pid, tid_t tid, ptid_t ptid, pm_data_mx_t *data, timebasestruct_t *time) {
  return WithGroup(pid, tid, ptid,
                   [&](CountingGroup *group, Context *) { return ReadGroupMx(group, data, time); });
}

}  // namespace

extern "C" {

int pm_set_program_group_mx(pid_t pid, tid_t tid, pm_prog_mx_t *prog) {
  return Guarded([&] { return SetGroupMx(pid, tid, 0, prog); });
}
int pm_set_program_group_mm(pid_t pid, tid_t tid, pm_prog_mm_t *prog) {
  return Guarded([&] { return SetGroupMm(pid, tid, 0, prog); });
}
int pm_get_program_group_mx(pid_t pid, tid_t tid, pm_prog_mx_t *prog) {
  return Guarded([&] { return GetGroupMx(pid, tid, 0, prog); });
}
int pm_get_program_group_mm(pid_t pid, tid_t tid, pm_prog_mm_t *prog) {
  return Guarded([&] { return GetGroupMm(pid, tid, 0, prog); });
}
int pm_get_data_group_mx(pid_t pid, tid_t tid, pm_data_mx_t *data) {
  return Guarded([&] { return ReadGroupMxOf(pid, tid, 0, data, nullptr); });
}
int pm_get_tdata_group_mx(pid_t pid, tid_t tid, pm_data_mx_t *data, timebasestruct_t *time) {
  return Guarded(
      [&] { return time ? ReadGroupMxOf(pid, tid, 0, data, time) : NullArgument("time"); });
}

int pm_set_program_pgroup_mx(pid_t pid, tid_t tid, ptid_t ptid, pm_prog_mx_t *prog) {
  return Guarded([&] { return SetGroupMx(pid, tid, ptid, prog); });
}
int pm_set_program_pgroup_mm(pid_t pid, tid_t tid, ptid_t ptid, pm_prog_mm_t *prog) {
  return Guarded([&] { return SetGroupMm(pid, tid, ptid, prog); });
}
int pm_get_program_pgroup_mx(pid_t pid, tid_t tid, ptid_t ptid, pm_prog_mx_t *prog) {
  return Guarded([&] { return GetGroupMx(pid, tid, ptid, prog); });
}
int pm_get_program_pgroup_mm(pid_t pid, tid_t tid, ptid_t ptid, pm_prog_mm_t *prog) {
  return Guarded([&] { return GetGroupMm(pid, tid, ptid, prog); });
}
int pm_get_data_pgroup_mx(pid_t pid, tid_t tid, ptid_t ptid, pm_data_mx_t *data) {
  return Guarded([&] { return ReadGroupMxOf(pid, tid, ptid, data, nullptr); });
}
int pm_get_tdata_pgroup_mx(pid_t pid, tid_t tid, ptid_t ptid, pm_data_mx_t *data,
                           timebasestruct_t *time) {
  return Guarded(
      [&] { return time ? ReadGroupMxOf(pid, tid, ptid, data, time) : NullArgument("time"); });
}

}  // extern "C"
