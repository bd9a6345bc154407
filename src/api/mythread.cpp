// The first-party thread family: the calling thread's own context. The read
// path is a thread-local lookup, one read(2) and a copy: no lock, no
// allocation.
#include <unistd.h>

#include "api/context_ops.h"
#include "core/last_error.h"
#include "core/my_thread.h"
#include "core/registry.h"

using namespace pmapi;

namespace {
constexpr const char kFamily[] = "_mythread";
}

extern "C" {

int pm_set_program_mythread(pm_prog_t *prog) {
  if (MyContext()) {
    return Report(Pmapi_ProgExists,
                  "this thread already has a context (set earlier, or inherited from the thread "
                  "that created it); pm_delete_program_mythread first");
  }
  Program program;
  Status status = ProgramFromClient(prog, &program);
  if (!status.ok()) return Report(status);
  return Report(CreateMyThreadContext(std::move(program), prog->mode.b.count));
}

int pm_get_program_mythread(pm_prog_t *prog) {
  Context *mine = MyContext();
  if (!mine) return NoProgram(kFamily);
  return GetProgramOf(mine, prog);
}

int pm_delete_program_mythread(void) {
  Context *mine = MyContext();
  if (!mine) return NoProgram(kFamily);
  if (mine->group_root()) {
    return Report(Pmapi_GroupMember,
                  "this thread created its counting group; pm_delete_program_mygroup deletes "
                  "the group together with this context");
  }
  DeleteContext(Registry::Get().TakeMyThread());
  return 0;
}

int pm_start_mythread(void) {
  Context *mine = MyContext();
  if (!mine) return NoProgram(kFamily);
  return StartContext(mine, nullptr);
}

int pm_tstart_mythread(timebasestruct_t *time) {
  if (!time) return NullArgument("time");
  Context *mine = MyContext();
  if (!mine) return NoProgram(kFamily);
  return StartContext(mine, time);
}

int pm_stop_mythread(void) {
  Context *mine = MyContext();
  if (!mine) return NoProgram(kFamily);
  return StopContext(mine, nullptr);
}

int pm_tstop_mythread(timebasestruct_t *time) {
  if (!time) return NullArgument("time");
  Context *mine = MyContext();
  if (!mine) return NoProgram(kFamily);
  return StopContext(mine, time);
}

int pm_reset_data_mythread(void) {
  Context *mine = MyContext();
  if (!mine) return NoProgram(kFamily);
  return ResetContext(t_my_context);
}

int pm_get_data_mythread(pm_data_t *data) {
  Context *mine = MyContext();
  if (!mine) return NoProgram(kFamily);
  return ReadContext(mine, 0, data, nullptr, nullptr);
}

int pm_get_tdata_mythread(pm_data_t *data, timebasestruct_t *time) {
  if (!time) return NullArgument("time");
  Context *mine = MyContext();
  if (!mine) return NoProgram(kFamily);
  return ReadContext(mine, 0, data, time, nullptr);
}

int pm_get_Tdata_mythread(pm_data_t *data, pm_accu_time_t *times) {
  if (!times) return NullArgument("times");
  Context *mine = MyContext();
  if (!mine) return NoProgram(kFamily);
  return ReadContext(mine, 0, data, nullptr, times);
}

}  // extern "C"
