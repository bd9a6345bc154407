// SPDX-License-Identifier: MIT
// The first-party counting-group family (_mygroup): the caller and every
// thread or process it starts afterwards, or with mode.b.process the whole
// process. The caller also gets its own context, as a member (§5.6). The _mx
// and _mm forms are the same group, its program carrying every set (the
// group's inherited counters and every member's own context are multiplexed;
// new threads inherit every set); start, stop, reset and delete are the plain
// calls.
#include <unistd.h>

#include "api/context_ops.h"
#include "api/family_entry_points.h"
#include "api/multiplex_ops.h"
#include "api/targets.h"
#include "base/last_error.h"
#include "core/my_thread.h"
#include "core/registry.h"

using namespace pmapi;

namespace mygroup_family {
namespace {

constexpr const char kFamily[] = "_mygroup";

// Runs `op` on the caller's group, or reports why there is none.
template <typename Op>
int WithMyGroup(Op op) {
  Context *mine = MyContext();
  if (!mine) return NoProgram(kFamily);
  if (!mine->group()) {
    return Report(Pmapi_NoSetProg,
                  "this thread has a _mythread context but is not in a counting group");
  }
  return op(mine->group());
}

// Creates the group for a program already translated (plain, _mx or _mm).
Status CreateMyGroupFor(Program program) {
  Registry &registry = Registry::Get();
  Status status = registry.CheckThreadAllowed();
  if (!status.ok()) return status;
  std::vector<GroupTarget> roots;
  if (program.process_level()) {
    status = registry.CheckNoThreadContexts();
    if (status.ok()) status = ProcessThreads(getpid(), gettid(), &roots);
    if (!status.ok()) return status;
  } else {
    roots.push_back(ThreadTarget(getpid(), gettid()));
  }
  std::shared_ptr<CountingGroup> group;
  const bool start = program.mode().b.count;
  status = CountingGroup::Create(program, roots, start, &group);
  if (!status.ok()) return status;
  status = CreateMyThreadContext(std::move(program), start, group);
  if (!status.ok()) group->Delete();
  return status;
}

constexpr const char kMyGroupExists[] =
    "this thread already has a context (its own, a group's, or one inherited from the thread that "
    "created it); pm_delete_program_mythread first";

// Creates the group for a program already translated, whose translation gave `parsed`.
int SetParsed(const Status &parsed, Program program) {
  if (const int refused = RefuseMySet(parsed, kMyGroupExists)) return refused;
  return Report(CreateMyGroupFor(std::move(program)));
}

int Get(pm_prog_t *prog) {
  return WithMyGroup([&](CountingGroup *group) {
    if (!prog) return Report(Pmapi_InvalidArg, "prog is NULL");
    group->program().ToAix(group->counting(), prog);
    return 0;
  });
}

int Delete() {
  return WithMyGroup([&](CountingGroup *group) {
    group->Delete();
    Registry::Get().DropMyThread();
    return 0;
  });
}

int Start(timebasestruct_t *time) {
  return WithMyGroup([&](CountingGroup *group) {
    const int rc = Report(group->Start(t_my_context));
    if (rc == 0 && time) StampNow(time);
    return rc;
  });
}

int Stop(timebasestruct_t *time) {
  return WithMyGroup([&](CountingGroup *group) {
    const int rc = Report(group->Stop(t_my_context));
    if (rc == 0 && time) StampNow(time);
    return rc;
  });
}

int Reset() {
  return WithMyGroup([&](CountingGroup *group) { return Report(group->Reset(t_my_context)); });
}

int Read(pm_data_t *data, timebasestruct_t *time, pm_accu_time_t *times) {
  return WithMyGroup([&](CountingGroup *group) { return ReadGroup(group, data, time, times); });
}

int GetMx(pm_prog_mx_t *prog) {
  return WithMyGroup([&](CountingGroup *group) {
    return GetProgramMx(group->program(), group->counting(), prog);
  });
}

int GetMm(pm_prog_mm_t *prog) {
  return WithMyGroup([&](CountingGroup *group) {
    return GetProgramMm(group->program(), group->counting(), prog);
  });
}

int ReadMx(pm_data_mx_t *data, timebasestruct_t *time) {
  return WithMyGroup([&](CountingGroup *group) { return ReadGroupMx(group, data, time); });
}

}  // namespace
}  // namespace mygroup_family

PMAPI_IMPLICIT_TARGET_ENTRY_POINTS(_mygroup, mygroup_family)
