#include "api/context_ops.h"

#include "core/last_error.h"
#include "core/timebase.h"

namespace pmapi {
namespace {

void Stamp(timebasestruct_t *stamp) {
  if (stamp) TicksToTimebase(MonotonicNanos(), stamp);
}

}  // namespace

int NoProgram(const char *family) {
  return Report(Pmapi_NoSetProg, std::string("no ") + family + " program is set");
}

Status ProgramFromClient(const pm_prog_t *prog, Program *out) {
  if (!prog) return Status(Pmapi_InvalidArg, "prog is NULL");
  return Program::FromAix(*prog, out);
}

int GetProgramOf(const Context *context, pm_prog_t *prog) {
  if (!prog) return Report(Pmapi_InvalidArg, "prog is NULL");
  context->program().ToAix(context->counting(), prog);
  return 0;
}

int StartContext(Context *context, timebasestruct_t *stamp) {
  int rc = Report(context->Start());
  if (rc == 0) Stamp(stamp);
  return rc;
}

int StopContext(Context *context, timebasestruct_t *stamp) {
  int rc = Report(context->Stop());
  if (rc == 0) Stamp(stamp);
  return rc;
}

int ResetContext(Context *context) { return Report(context->Reset()); }

int ReadContext(const Context *context, int group_index, pm_data_t *data, timebasestruct_t *stamp,
                pm_accu_time_t *times) {
  if (!data) return Report(Pmapi_InvalidArg, "data is NULL");
  CountTimes counted;
  int rc = Report(context->Read(group_index, data, times ? &counted : nullptr));
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

}  // namespace pmapi
