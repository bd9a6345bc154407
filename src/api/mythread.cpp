// SPDX-License-Identifier: MIT
// The first-party thread family: the calling thread's own context. The read
// path is a thread-local lookup, one read(2) and a copy: no lock, no
// allocation. The _mx and _mm forms are the same context, its program
// carrying every set; start, stop, reset and delete are the plain calls.
#include <unistd.h>

#include "api/context_ops.h"
#include "api/family_entry_points.h"
#include "api/multiplex_ops.h"
#include "base/last_error.h"
#include "core/my_thread.h"
#include "core/registry.h"

using namespace pmapi;

namespace mythread_family {
namespace {

constexpr const char kFamily[] = "_mythread";

// No context here: say why when the thread was to inherit one and could not.
int NoMyProgram() {
  const Status *missed = MissedInheritance();
  if (!missed) return NoProgram(kFamily);
  return Report(
      Status(Pmapi_NoSetProg, {"no _mythread program is set: this thread did not inherit its "
                               "creator's context because ",
                               missed->detail_text()}));
}

// Runs `op` on the caller's context.
template <typename Op>
int WithMine(Op op) {
  Context *mine = MyContext();
  return mine ? op(mine) : NoMyProgram();
}

constexpr const char kMyThreadExists[] =
    "this thread already has a context (set earlier, or inherited from the thread that created "
    "it); pm_delete_program_mythread first";

// Creates the caller's context for a program already translated (plain, _mx or _mm), whose
// translation gave `parsed`.
int SetParsed(const Status &parsed, Program program) {
  if (const int refused = RefuseMySet(parsed, kMyThreadExists)) return refused;
  const bool start = program.mode().b.count;
  return Report(CreateMyThreadContext(std::move(program), start));
}

int Get(pm_prog_t *prog) {
  return WithMine([&](Context *mine) { return GetProgramOf(mine, prog); });
}

int Delete() {
  return WithMine([&](Context *mine) {
    if (mine->group_root()) {
      return Report(Pmapi_GroupMember,
                    "this thread created its counting group; pm_delete_program_mygroup deletes "
                    "the group together with this context");
    }
    DeleteContext(Registry::Get().TakeMyThread());
    return 0;
  });
}

int Start(timebasestruct_t *time) {
  return WithMine([&](Context *mine) { return StartContext(mine, time); });
}

int Stop(timebasestruct_t *time) {
  return WithMine([&](Context *mine) { return StopContext(mine, time); });
}

int Reset() {
  return WithMine([&](Context *mine) { return ResetContext(mine); });
}

int Read(pm_data_t *data, timebasestruct_t *time, pm_accu_time_t *times) {
  return WithMine([&](Context *mine) { return ReadContext(mine, 0, data, time, times); });
}

int GetMx(pm_prog_mx_t *prog) {
  return WithMine(
      [&](Context *mine) { return GetProgramMx(mine->program(), mine->counting(), prog); });
}

int GetMm(pm_prog_mm_t *prog) {
  return WithMine(
      [&](Context *mine) { return GetProgramMm(mine->program(), mine->counting(), prog); });
}

int ReadMx(pm_data_mx_t *data, timebasestruct_t *time) {
  return WithMine([&](Context *mine) { return ReadContextMx(mine, 0, data, time); });
}

}  // namespace
}  // namespace mythread_family

PMAPI_IMPLICIT_TARGET_ENTRY_POINTS(_mythread, mythread_family)
