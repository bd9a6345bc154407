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
  if (t_my_context) {
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
  if (!t_my_context) return NoProgram(kFamily);
  return GetProgramOf(t_my_context, prog);
}

int pm_delete_program_mythread(void) {
  if (!t_my_context) return NoProgram(kFamily);
  Registry::Get().DropMyThread();
  return 0;
}

int pm_start_mythread(void) {
  if (!t_my_context) return NoProgram(kFamily);
  return StartContext(t_my_context, nullptr);
}

int pm_tstart_mythread(timebasestruct_t *time) {
  if (!time) return Report(Pmapi_InvalidArg, "time is NULL");
  if (!t_my_context) return NoProgram(kFamily);
  return StartContext(t_my_context, time);
}

int pm_stop_mythread(void) {
  if (!t_my_context) return NoProgram(kFamily);
  return StopContext(t_my_context, nullptr);
}

int pm_tstop_mythread(timebasestruct_t *time) {
  if (!time) return Report(Pmapi_InvalidArg, "time is NULL");
  if (!t_my_context) return NoProgram(kFamily);
  return StopContext(t_my_context, time);
}

int pm_reset_data_mythread(void) {
  if (!t_my_context) return NoProgram(kFamily);
  return ResetContext(t_my_context);
}

int pm_get_data_mythread(pm_data_t *data) {
  if (!t_my_context) return NoProgram(kFamily);
  return ReadContext(t_my_context, 0, data, nullptr, nullptr);
}

int pm_get_tdata_mythread(pm_data_t *data, timebasestruct_t *time) {
  if (!time) return Report(Pmapi_InvalidArg, "time is NULL");
  if (!t_my_context) return NoProgram(kFamily);
  return ReadContext(t_my_context, 0, data, time, nullptr);
}

int pm_get_Tdata_mythread(pm_data_t *data, pm_accu_time_t *times) {
  if (!times) return Report(Pmapi_InvalidArg, "times is NULL");
  if (!t_my_context) return NoProgram(kFamily);
  return ReadContext(t_my_context, 0, data, nullptr, times);
}

}  // extern "C"
