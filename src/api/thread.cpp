// SPDX-License-Identifier: MIT
// The third-party thread families: _thread(pid, tid) and _pthread(pid, tid,
// ptid). Counting opens perf events on the target thread; the kernel's
// ptrace-access check decides who may, and a refusal comes back as
// Pmapi_Permission. The descriptors keep the target's final counts after it
// exits, so they stay readable until the context is deleted.
#include "api/context_ops.h"
#include "api/family_entry_points.h"
#include "api/multiplex_ops.h"
#include "api/targets.h"
#include "api/third_party_target.h"
#include "base/last_error.h"
#include "core/registry.h"

using namespace pmapi;

namespace thread_family {
namespace {

constexpr const char kFamily[] = "third-party thread";

// Creates the target's context for a program already translated (plain, _mx or _mm), whose
// translation gave `parsed`.
int SetParsed(pid_t pid, tid_t tid, ptid_t ptid, const Status &parsed, Program program) {
  return WithThirdPartyTarget(pid, tid, ptid, [&](Registry &registry, Context *existing) {
    if (existing) return AlreadyProgrammed(pid, tid, "pm_delete_program_thread");
    Status status = parsed;
    if (status.ok()) status = registry.CheckThreadAllowed();
    if (status.ok()) status = TargetExists(pid, tid);
    const bool start = program.mode().b.count;
    std::unique_ptr<Context> context;
    if (status.ok()) {
      status = Context::Create(std::move(program), {ThreadTarget(pid, tid)}, start, &context);
    }
    if (status.ok()) status = registry.AdoptTarget(pid, tid, std::move(context));
    return Report(status);
  });
}

// Runs `op` on the target's context under the third-party lock.
template <typename Op>
int WithTarget(pid_t pid, tid_t tid, ptid_t ptid, Op op) {
  return WithThirdPartyTarget(pid, tid, ptid, [&](Registry &, Context *context) {
    return context ? op(context) : NoProgram(kFamily);
  });
}

int Delete(pid_t pid, tid_t tid, ptid_t ptid) {
  return WithTarget(pid, tid, ptid, [&](Context *c) {
    if (c->group_root()) {
      return Report(Pmapi_GroupMember,
                    "thread " + std::to_string(tid) + " of process " + std::to_string(pid) +
                        " is the target of a counting group; pm_delete_program_group deletes "
                        "the group together with this context");
    }
    DeleteContext(Registry::Get().TakeTarget(pid, tid));
    return 0;
  });
}

int Get(pid_t pid, tid_t tid, ptid_t ptid, pm_prog_t *prog) {
  return WithTarget(pid, tid, ptid, [&](Context *c) { return GetProgramOf(c, prog); });
}

int Start(pid_t pid, tid_t tid, ptid_t ptid, timebasestruct_t *time) {
  return WithTarget(pid, tid, ptid, [&](Context *c) { return StartContext(c, time); });
}

int Stop(pid_t pid, tid_t tid, ptid_t ptid, timebasestruct_t *time) {
  return WithTarget(pid, tid, ptid, [&](Context *c) { return StopContext(c, time); });
}

int Reset(pid_t pid, tid_t tid, ptid_t ptid) {
  return WithTarget(pid, tid, ptid, [&](Context *c) { return ResetContext(c); });
}

int Read(pid_t pid, tid_t tid, ptid_t ptid, pm_data_t *data, timebasestruct_t *time,
         pm_accu_time_t *times) {
  return WithTarget(pid, tid, ptid,
                    [&](Context *c) { return ReadContext(c, 0, data, time, times); });
}

// The multiplexed (_mx) and multi-mode (_mm) forms: the same third-party context, its program
// carrying every set; start, stop, reset and delete are the plain calls.

int GetMx(pid_t pid, tid_t tid, ptid_t ptid, pm_prog_mx_t *prog) {
  return WithTarget(pid, tid, ptid,
                    [&](Context *c) { return GetProgramMx(c->program(), c->counting(), prog); });
}

int GetMm(pid_t pid, tid_t tid, ptid_t ptid, pm_prog_mm_t *prog) {
  return WithTarget(pid, tid, ptid,
                    [&](Context *c) { return GetProgramMm(c->program(), c->counting(), prog); });
}

int ReadMx(pid_t pid, tid_t tid, ptid_t ptid, pm_data_mx_t *data, timebasestruct_t *time) {
  return WithTarget(pid, tid, ptid, [&](Context *c) { return ReadContextMx(c, 0, data, time); });
}

}  // namespace
}  // namespace thread_family

PMAPI_THIRD_PARTY_ENTRY_POINTS(_thread, _pthread, thread_family)
