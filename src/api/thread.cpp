// The third-party thread families: _thread(pid, tid) and _pthread(pid, tid,
// ptid). Counting opens perf events on the target thread; the kernel's
// ptrace-access check decides who may, and a refusal comes back as
// Pmapi_Permission. The descriptors keep the target's final counts after it
// exits, so they stay readable until the context is deleted.
#include <mutex>

#include "api/c_boundary.h"
#include "api/context_ops.h"
#include "api/multiplex_ops.h"
#include "api/targets.h"
#include "base/last_error.h"
#include "core/registry.h"

using namespace pmapi;

namespace {

constexpr const char kFamily[] = "third-party thread";

int Set(pid_t pid, tid_t tid, ptid_t ptid, pm_prog_t *prog) {
  Status status = CheckTarget(pid, tid, ptid);
  if (!status.ok()) return Report(status);
  Registry &registry = Registry::Get();
  std::lock_guard<std::mutex> lock(registry.third_party_calls());
  if (registry.FindTarget(pid, tid)) {
    return Report(Pmapi_ProgExists, "thread " + std::to_string(tid) + " of process " +
                                        std::to_string(pid) +
                                        " is already programmed; pm_delete_program_thread first");
  }
  Program program;
  status = ProgramFromClient(prog, &program);
  if (status.ok()) status = registry.CheckThreadAllowed();
  if (status.ok()) status = TargetExists(pid, tid);
  std::unique_ptr<Context> context;
  if (status.ok()) {
    status =
        Context::Create(std::move(program), {ThreadTarget(pid, tid)}, prog->mode.b.count, &context);
  }
  if (status.ok()) status = registry.AdoptTarget(pid, tid, std::move(context));
  return Report(status);
}

// Runs `op` on the target's context under the third-party lock.
template <typename Op>
int WithTarget(pid_t pid, tid_t tid, ptid_t ptid, Op op) {
  Status status = CheckTarget(pid, tid, ptid);
  if (!status.ok()) return Report(status);
  Registry &registry = Registry::Get();
  std::lock_guard<std::mutex> lock(registry.third_party_calls());
  Context *context = registry.FindTarget(pid, tid);
  if (!context) return NoProgram(kFamily);
  return op(context);
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

}  // namespace

extern "C" {

int pm_set_program_thread(pid_t pid, tid_t tid, pm_prog_t *prog) {
  return Guarded([&] { return Set(pid, tid, 0, prog); });
}
int pm_get_program_thread(pid_t pid, tid_t tid, pm_prog_t *prog) {
  return Guarded([&] { return Get(pid, tid, 0, prog); });
}
int pm_delete_program_thread(pid_t pid, tid_t tid) {
  return Guarded([&] { return Delete(pid, tid, 0); });
}
int pm_start_thread(pid_t pid, tid_t tid) {
  return Guarded([&] { return Start(pid, tid, 0, nullptr); });
}
int pm_tstart_thread(pid_t pid, tid_t tid, timebasestruct_t *time) {
  return Guarded([&] { return time ? Start(pid, tid, 0, time) : NullArgument("time"); });
}
int pm_stop_thread(pid_t pid, tid_t tid) {
  return Guarded([&] { return Stop(pid, tid, 0, nullptr); });
}
int pm_tstop_thread(pid_t pid, tid_t tid, timebasestruct_t *time) {
  return Guarded([&] { return time ? Stop(pid, tid, 0, time) : NullArgument("time"); });
}
int pm_reset_data_thread(pid_t pid, tid_t tid) {
  return Guarded([&] { return Reset(pid, tid, 0); });
}
int pm_get_data_thread(pid_t pid, tid_t tid, pm_data_t *data) {
  return Guarded([&] { return Read(pid, tid, 0, data, nullptr, nullptr); });
}
int pm_get_tdata_thread(pid_t pid, tid_t tid, pm_data_t *data, timebasestruct_t *time) {
  return Guarded(
      [&] { return time ? Read(pid, tid, 0, data, time, nullptr) : NullArgument("time"); });
}
int pm_get_Tdata_thread(pid_t pid, tid_t tid, pm_data_t *data, pm_accu_time_t *times) {
  return Guarded(
      [&] { return times ? Read(pid, tid, 0, data, nullptr, times) : NullArgument("times"); });
}

int pm_set_program_pthread(pid_t pid, tid_t tid, ptid_t ptid, pm_prog_t *prog) {
  return Guarded([&] { return Set(pid, tid, ptid, prog); });
}
int pm_get_program_pthread(pid_t pid, tid_t tid, ptid_t ptid, pm_prog_t *prog) {
  return Guarded([&] { return Get(pid, tid, ptid, prog); });
}
int pm_delete_program_pthread(pid_t pid, tid_t tid, ptid_t ptid) {
  return Guarded([&] { return Delete(pid, tid, ptid); });
}
int pm_start_pthread(pid_t pid, tid_t tid, ptid_t ptid) {
  return Guarded([&] { return Start(pid, tid, ptid, nullptr); });
}
int pm_tstart_pthread(pid_t pid, tid_t tid, ptid_t ptid, timebasestruct_t *time) {
  return Guarded([&] { return time ? Start(pid, tid, ptid, time) : NullArgument("time"); });
}
int pm_stop_pthread(pid_t pid, tid_t tid, ptid_t ptid) {
  return Guarded([&] { return Stop(pid, tid, ptid, nullptr); });
}
int pm_tstop_pthread(pid_t pid, tid_t tid, ptid_t ptid, timebasestruct_t *time) {
  return Guarded([&] { return time ? Stop(pid, tid, ptid, time) : NullArgument("time"); });
}
int pm_reset_data_pthread(pid_t pid, tid_t tid, ptid_t ptid) {
  return Guarded([&] { return Reset(pid, tid, ptid); });
}
int pm_get_data_pthread(pid_t pid, tid_t tid, ptid_t ptid, pm_data_t *data) {
  return Guarded([&] { return Read(pid, tid, ptid, data, nullptr, nullptr); });
}
int pm_get_tdata_pthread(pid_t pid, tid_t tid, ptid_t ptid, pm_data_t *data,
                         timebasestruct_t *time) {
  return Guarded(
      [&] { return time ? Read(pid, tid, ptid, data, time, nullptr) : NullArgument("time"); });
}
int pm_get_Tdata_pthread(pid_t pid, tid_t tid, ptid_t ptid, pm_data_t *data,
                         pm_accu_time_t *times) {
  return Guarded(
      [&] { return times ? Read(pid, tid, ptid, data, nullptr, times) : NullArgument("times"); });
}

}  // extern "C"

// The multiplexed (_mx) and multi-mode (_mm) forms: the same third-party context, its program
// carrying every set; start, stop, reset and delete are the plain calls.
namespace {

int SetMx(pid_t pid, tid_t tid, ptid_t ptid, const Status &parsed, Program program) {
  Status status = CheckTarget(pid, tid, ptid);
  if (!status.ok()) return Report(status);
  Registry &registry = Registry::Get();
  std::lock_guard<std::mutex> lock(registry.third_party_calls());
  if (registry.FindTarget(pid, tid)) {
    return Report(Pmapi_ProgExists, "thread " + std::to_string(tid) + " of process " +
                                        std::to_string(pid) +
                                        " is already programmed; pm_delete_program_thread first");
  }
  status = parsed;
  if (status.ok()) status = registry.CheckThreadAllowed();
  if (status.ok()) status = TargetExists(pid, tid);
  const bool start = program.mode().b.count;
  std::unique_ptr<Context> context;
  if (status.ok()) {
    status = Context::Create(std::move(program), {ThreadTarget(pid, tid)}, start, &context);
  }
  if (status.ok()) status = registry.AdoptTarget(pid, tid, std::move(context));
  return Report(status);
}

int SetThreadMx(pid_t pid, tid_t tid, ptid_t ptid, pm_prog_mx_t *prog) {
  Program program;
  Status status = ProgramFromMx(prog, &program);
  return SetMx(pid, tid, ptid, status, std::move(program));
}

int SetThreadMm(pid_t pid, tid_t tid, ptid_t ptid, pm_prog_mm_t *prog) {
  Program program;
  Status status = ProgramFromMm(prog, &program);
  return SetMx(pid, tid, ptid, status, std::move(program));
}

int GetThreadMx(pid_t pid, tid_t tid, ptid_t ptid, pm_prog_mx_t *prog) {
  return WithTarget(pid, tid, ptid,
                    [&](Context *c) { return GetProgramMx(c->program(), c->counting(), prog); });
}

int GetThreadMm(pid_t pid, tid_t tid, ptid_t ptid, pm_prog_mm_t *prog) {
  return WithTarget(pid, tid, ptid,
                    [&](Context *c) { return GetProgramMm(c->program(), c->counting(), prog); });
}

int ReadThreadMx(pid_t pid, tid_t tid, ptid_t ptid, pm_data_mx_t *data, timebasestruct_t *time) {
  return WithTarget(pid, tid, ptid, [&](Context *c) { return ReadContextMx(c, 0, data, time); });
}

}  // namespace

extern "C" {

int pm_set_program_thread_mx(pid_t pid, tid_t tid, pm_prog_mx_t *prog) {
  return Guarded([&] { return SetThreadMx(pid, tid, 0, prog); });
}
int pm_set_program_thread_mm(pid_t pid, tid_t tid, pm_prog_mm_t *prog) {
  return Guarded([&] { return SetThreadMm(pid, tid, 0, prog); });
}
int pm_get_program_thread_mx(pid_t pid, tid_t tid, pm_prog_mx_t *prog) {
  return Guarded([&] { return GetThreadMx(pid, tid, 0, prog); });
}
int pm_get_program_thread_mm(pid_t pid, tid_t tid, pm_prog_mm_t *prog) {
  return Guarded([&] { return GetThreadMm(pid, tid, 0, prog); });
}
int pm_get_data_thread_mx(pid_t pid, tid_t tid, pm_data_mx_t *data) {
  return Guarded([&] { return ReadThreadMx(pid, tid, 0, data, nullptr); });
}
int pm_get_tdata_thread_mx(pid_t pid, tid_t tid, pm_data_mx_t *data, timebasestruct_t *time) {
  return Guarded(
      [&] { return time ? ReadThreadMx(pid, tid, 0, data, time) : NullArgument("time"); });
}

int pm_set_program_pthread_mx(pid_t pid, tid_t tid, ptid_t ptid, pm_prog_mx_t *prog) {
  return Guarded([&] { return SetThreadMx(pid, tid, ptid, prog); });
}
int pm_set_program_pthread_mm(pid_t pid, tid_t tid, ptid_t ptid, pm_prog_mm_t *prog) {
  return Guarded([&] { return SetThreadMm(pid, tid, ptid, prog); });
}
int pm_get_program_pthread_mx(pid_t pid, tid_t tid, ptid_t ptid, pm_prog_mx_t *prog) {
  return Guarded([&] { return GetThreadMx(pid, tid, ptid, prog); });
}
int pm_get_program_pthread_mm(pid_t pid, tid_t tid, ptid_t ptid, pm_prog_mm_t *prog) {
  return Guarded([&] { return GetThreadMm(pid, tid, ptid, prog); });
}
int pm_get_data_pthread_mx(pid_t pid, tid_t tid, ptid_t ptid, pm_data_mx_t *data) {
  return Guarded([&] { return ReadThreadMx(pid, tid, ptid, data, nullptr); });
}
int pm_get_tdata_pthread_mx(pid_t pid, tid_t tid, ptid_t ptid, pm_data_mx_t *data,
                            timebasestruct_t *time) {
  return Guarded(
      [&] { return time ? ReadThreadMx(pid, tid, ptid, data, time) : NullArgument("time"); });
}

}  // extern "C"
