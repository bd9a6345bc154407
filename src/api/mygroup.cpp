// The first-party counting-group family (_mygroup): the caller and every
// thread or process it starts afterwards, or with mode.b.process the whole
// process. The caller also gets its own context, as a member (§5.6).
#include <unistd.h>

#include "api/c_boundary.h"
#include "api/context_ops.h"
#include "api/multiplex_ops.h"
#include "api/targets.h"
#include "base/last_error.h"
#include "core/my_thread.h"
#include "core/registry.h"

using namespace pmapi;

namespace {

constexpr const char kFamily[] = "_mygroup";

// The caller's group, or null after reporting why there is none.
CountingGroup *MyGroup(int *rc) {
  Context *mine = MyContext();
  if (!mine) {
    *rc = NoProgram(kFamily);
    return nullptr;
  }
  if (!mine->group()) {
    *rc = Report(Pmapi_NoSetProg,
                 "this thread has a _mythread context but is not in a counting group");
    return nullptr;
  }
  return mine->group();
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

Status CreateMyGroup(const pm_prog_t *prog) {
  Program program;
  Status status = ProgramFromClient(prog, &program);
  if (!status.ok()) return status;
  return CreateMyGroupFor(std::move(program));
}

int Read(pm_data_t *data, timebasestruct_t *time, pm_accu_time_t *times) {
  int rc = 0;
  CountingGroup *group = MyGroup(&rc);
  return group ? ReadGroup(group, data, time, times) : rc;
}

}  // namespace

extern "C" {

int pm_set_program_mygroup(pm_prog_t *prog) {
  return Guarded([&] {
    if (MyContext()) {
      return Report(Pmapi_ProgExists,
                    "this thread already has a context (its own, a group's, or one inherited from "
                    "the thread that created it); pm_delete_program_mythread first");
    }
    return Report(CreateMyGroup(prog));
  });
}

int pm_get_program_mygroup(pm_prog_t *prog) {
  return Guarded([&] {
    int rc = 0;
    CountingGroup *group = MyGroup(&rc);
    if (!group) return rc;
    if (!prog) return Report(Pmapi_InvalidArg, "prog is NULL");
    group->program().ToAix(group->counting(), prog);
    return 0;
  });
}

int pm_delete_program_mygroup(void) {
  return Guarded([&] {
    int rc = 0;
    CountingGroup *group = MyGroup(&rc);
    if (!group) return rc;
    group->Delete();
    Registry::Get().DropMyThread();
    return 0;
  });
}

int pm_start_mygroup(void) {
  return Guarded([&] {
    int rc = 0;
    CountingGroup *group = MyGroup(&rc);
    return group ? Report(group->Start(t_my_context)) : rc;
  });
}

int pm_tstart_mygroup(timebasestruct_t *time) {
  return Guarded([&] {
    if (!time) return NullArgument("time");
    int rc = pm_start_mygroup();
    if (rc == 0) StampNow(time);
    return rc;
  });
}

int pm_stop_mygroup(void) {
  return Guarded([&] {
    int rc = 0;
    CountingGroup *group = MyGroup(&rc);
    return group ? Report(group->Stop(t_my_context)) : rc;
  });
}

int pm_tstop_mygroup(timebasestruct_t *time) {
  return Guarded([&] {
    if (!time) return NullArgument("time");
    int rc = pm_stop_mygroup();
    if (rc == 0) StampNow(time);
    return rc;
  });
}

int pm_reset_data_mygroup(void) {
  return Guarded([&] {
    int rc = 0;
    CountingGroup *group = MyGroup(&rc);
    return group ? Report(group->Reset(t_my_context)) : rc;
  });
}

int pm_get_data_mygroup(pm_data_t *data) {
  return Guarded([&] { return Read(data, nullptr, nullptr); });
}

int pm_get_tdata_mygroup(pm_data_t *data, timebasestruct_t *time) {
  return Guarded([&] { return time ? Read(data, time, nullptr) : NullArgument("time"); });
}

int pm_get_Tdata_mygroup(pm_data_t *data, pm_accu_time_t *times) {
  return Guarded([&] { return times ? Read(data, nullptr, times) : NullArgument("times"); });
}

}  // extern "C"

// The multiplexed (_mx) and multi-mode (_mm) forms: the same group, its program carrying every
// set (the group's inherited counters and every member's own context are multiplexed; new
// threads inherit every set); start, stop, reset and delete are the plain calls.
namespace {

int SetMyGroupMx(const Status &parsed, Program program) {
  if (MyContext()) {
    return Report(Pmapi_ProgExists,
                  "this thread already has a context (its own, a group's, or one inherited from "
                  "the thread that created it); pm_delete_program_mythread first");
  }
  if (!parsed.ok()) return Report(parsed);
  return Report(CreateMyGroupFor(std::move(program)));
}

int ReadMx(pm_data_mx_t *data, timebasestruct_t *time) {
  int rc = 0;
  CountingGroup *group = MyGroup(&rc);
  return group ? ReadGroupMx(group, data, time) : rc;
}

}  // namespace

extern "C" {

int pm_set_program_mygroup_mx(pm_prog_mx_t *prog) {
  return Guarded([&] {
    Program program;
    Status status = ProgramFromMx(prog, &program);
    return SetMyGroupMx(status, std::move(program));
  });
}

int pm_set_program_mygroup_mm(pm_prog_mm_t *prog) {
  return Guarded([&] {
    Program program;
    Status status = ProgramFromMm(prog, &program);
    return SetMyGroupMx(status, std::move(program));
  });
}

int pm_get_program_mygroup_mx(pm_prog_mx_t *prog) {
  return Guarded([&] {
    int rc = 0;
    CountingGroup *group = MyGroup(&rc);
    return group ? GetProgramMx(group->program(), group->counting(), prog) : rc;
  });
}

int pm_get_program_mygroup_mm(pm_prog_mm_t *prog) {
  return Guarded([&] {
    int rc = 0;
    CountingGroup *group = MyGroup(&rc);
    return group ? GetProgramMm(group->program(), group->counting(), prog) : rc;
  });
}

int pm_get_data_mygroup_mx(pm_data_mx_t *data) {
  return Guarded([&] { return ReadMx(data, nullptr); });
}

int pm_get_tdata_mygroup_mx(pm_data_mx_t *data, timebasestruct_t *time) {
  return Guarded([&] { return time ? ReadMx(data, time) : NullArgument("time"); });
}

}  // extern "C"
