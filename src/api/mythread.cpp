// The first-party thread family: the calling thread's own context. The read
// path is a thread-local lookup, one read(2) and a copy: no lock, no
// allocation.
#include <unistd.h>

#include "api/c_boundary.h"
#include "api/context_ops.h"
#include "api/multiplex_ops.h"
#include "base/last_error.h"
#include "core/my_thread.h"
#include "core/registry.h"

using namespace pmapi;

namespace {

constexpr const char kFamily[] = "_mythread";
constexpr const char kMyThreadExists[] =
    "this thread already has a context (set earlier, or inherited from the thread that created "
    "it); pm_delete_program_mythread first";

// No context here: say why when the thread was to inherit one and could not.
int NoMyProgram() {
  const Status *missed = MissedInheritance();
  if (!missed) return NoProgram(kFamily);
  return Report(
      Status(Pmapi_NoSetProg, {"no _mythread program is set: this thread did not inherit its "
                               "creator's context because ",
                               missed->detail_text()}));
}

}  // namespace

extern "C" {

int pm_set_program_mythread(pm_prog_t *prog) {
  return Guarded([&] {
    if (MyContext()) {
      return Report(Pmapi_ProgExists,
                    "this thread already has a context (set earlier, or inherited from the thread "
                    "that created it); pm_delete_program_mythread first");
    }
    Program program;
    Status status = ProgramFromClient(prog, &program);
    if (!status.ok()) return Report(status);
    return Report(CreateMyThreadContext(std::move(program), prog->mode.b.count));
  });
}

int pm_get_program_mythread(pm_prog_t *prog) {
  return Guarded([&] {
    Context *mine = MyContext();
    if (!mine) return NoMyProgram();
    return GetProgramOf(mine, prog);
  });
}

int pm_delete_program_mythread(void) {
  return Guarded([&] {
    Context *mine = MyContext();
    if (!mine) return NoMyProgram();
    if (mine->group_root()) {
      return Report(Pmapi_GroupMember,
                    "this thread created its counting group; pm_delete_program_mygroup deletes "
                    "the group together with this context");
    }
    DeleteContext(Registry::Get().TakeMyThread());
    return 0;
  });
}

int pm_start_mythread(void) {
  return Guarded([&] {
    Context *mine = MyContext();
    if (!mine) return NoMyProgram();
    return StartContext(mine, nullptr);
  });
}

int pm_tstart_mythread(timebasestruct_t *time) {
  return Guarded([&] {
    if (!time) return NullArgument("time");
    Context *mine = MyContext();
    if (!mine) return NoMyProgram();
    return StartContext(mine, time);
  });
}

int pm_stop_mythread(void) {
  return Guarded([&] {
    Context *mine = MyContext();
    if (!mine) return NoMyProgram();
    return StopContext(mine, nullptr);
  });
}

int pm_tstop_mythread(timebasestruct_t *time) {
  return Guarded([&] {
    if (!time) return NullArgument("time");
    Context *mine = MyContext();
    if (!mine) return NoMyProgram();
    return StopContext(mine, time);
  });
}

int pm_reset_data_mythread(void) {
  return Guarded([&] {
    Context *mine = MyContext();
    if (!mine) return NoMyProgram();
    return ResetContext(mine);
  });
}

int pm_get_data_mythread(pm_data_t *data) {
  return Guarded([&] {
    Context *mine = MyContext();
    if (!mine) return NoMyProgram();
    return ReadContext(mine, 0, data, nullptr, nullptr);
  });
}

int pm_get_tdata_mythread(pm_data_t *data, timebasestruct_t *time) {
  return Guarded([&] {
    if (!time) return NullArgument("time");
    Context *mine = MyContext();
    if (!mine) return NoMyProgram();
    return ReadContext(mine, 0, data, time, nullptr);
  });
}

int pm_get_Tdata_mythread(pm_data_t *data, pm_accu_time_t *times) {
  return Guarded([&] {
    if (!times) return NullArgument("times");
    Context *mine = MyContext();
    if (!mine) return NoMyProgram();
    return ReadContext(mine, 0, data, nullptr, times);
  });
}

}  // extern "C"

// The multiplexed (_mx) and multi-mode (_mm) forms: the same context, its program carrying
// every set; start, stop, reset and delete are the plain calls.
namespace {

int SetMyThread(const Status &parsed, Program program) {
  if (!parsed.ok()) return Report(parsed);
  const bool start = program.mode().b.count;
  return Report(CreateMyThreadContext(std::move(program), start));
}

int ReadMyThreadMx(pm_data_mx_t *data, timebasestruct_t *time) {
  Context *mine = MyContext();
  if (!mine) return NoMyProgram();
  return ReadContextMx(mine, 0, data, time);
}

}  // namespace

extern "C" {

int pm_set_program_mythread_mx(pm_prog_mx_t *prog) {
  return Guarded([&] {
    if (MyContext()) return Report(Pmapi_ProgExists, kMyThreadExists);
    Program program;
    Status status = ProgramFromMx(prog, &program);
    return SetMyThread(status, std::move(program));
  });
}

int pm_set_program_mythread_mm(pm_prog_mm_t *prog) {
  return Guarded([&] {
    if (MyContext()) return Report(Pmapi_ProgExists, kMyThreadExists);
    Program program;
    Status status = ProgramFromMm(prog, &program);
    return SetMyThread(status, std::move(program));
  });
}

int pm_get_program_mythread_mx(pm_prog_mx_t *prog) {
  return Guarded([&] {
    Context *mine = MyContext();
    if (!mine) return NoMyProgram();
    return GetProgramMx(mine->program(), mine->counting(), prog);
  });
}

int pm_get_program_mythread_mm(pm_prog_mm_t *prog) {
  return Guarded([&] {
    Context *mine = MyContext();
    if (!mine) return NoMyProgram();
    return GetProgramMm(mine->program(), mine->counting(), prog);
  });
}

int pm_get_data_mythread_mx(pm_data_mx_t *data) {
  return Guarded([&] { return ReadMyThreadMx(data, nullptr); });
}

int pm_get_tdata_mythread_mx(pm_data_mx_t *data, timebasestruct_t *time) {
  return Guarded([&] { return time ? ReadMyThreadMx(data, time) : NullArgument("time"); });
}

}  // extern "C"
