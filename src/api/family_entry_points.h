/* SPDX-License-Identifier: MIT */
// The C entry points of the counting families, written once. Every family has the same 17
// calls: 11 plain (set, get, delete, start, tstart, stop, tstop, reset, get_data, get_tdata,
// get_Tdata) and 6 _mx/_mm (set _mx and _mm, get _mx and _mm, get_data_mx, get_tdata_mx),
// every one a shim that runs its family's operation inside Guarded (c_boundary.h), the timed
// calls refusing a NULL time first. Only the operations and the target parameters differ, so
// a family defines its operations in a namespace and expands, at file scope, one of:
//
//   PMAPI_IMPLICIT_TARGET_ENTRY_POINTS(_mythread, mythread_family)   the caller, its group,
//   PMAPI_IMPLICIT_TARGET_ENTRY_POINTS(, system_family)              or the machine
//   PMAPI_THIRD_PARTY_ENTRY_POINTS(_thread, _pthread, thread_family) (pid, tid[, ptid])
//
// which define pm_set_program_mythread ... pm_get_tdata_mythread_mx, pm_set_program ...
// pm_get_tdata_mx, pm_set_program_thread ... pm_get_tdata_pthread_mx. The namespace provides
// (third-party operations taking (pid, tid, ptid) first):
//   SetParsed(parsed, program), Get(prog), Delete(), Start(time), Stop(time), Reset(),
//   Read(data, time, times), GetMx(prog), GetMm(prog), ReadMx(data, time)
// (time and times may be null, as the untimed calls pass them). The compiler holds each
// definition to its declaration in pmapi.h, and tests/api/family_matrix_test.cpp and
// tests/api/entry_points_test.cpp call every one.
#pragma once

#include <sys/types.h>

#include <utility>

#include "api/c_boundary.h"
#include "api/context_ops.h"
#include "api/export.h"
#include "api/multiplex_ops.h"

namespace pmapi {

// Whom a form's calls act on: a third-party form's thread, named by its parameters, or the
// target a first-party or system-wide family knows without being told.
struct ThirdPartyIds {
  pid_t pid;
  tid_t tid;
  ptid_t ptid;
};
struct ImplicitTarget {};

template <typename Op, typename... Args>
int ApplyTo(const ThirdPartyIds &ids, Op op, Args &&...args) {
  return op(ids.pid, ids.tid, ids.ptid, std::forward<Args>(args)...);
}
template <typename Op, typename... Args>
int ApplyTo(ImplicitTarget, Op op, Args &&...args) {
  return op(std::forward<Args>(args)...);
}

// A client's program, plain, _mx or _mm, translated.
inline Status TranslateProgram(const pm_prog_t *prog, Program *out) {
  return ProgramFromClient(prog, out);
}
inline Status TranslateProgram(const pm_prog_mx_t *prog, Program *out) {
  return ProgramFromMx(prog, out);
}
inline Status TranslateProgram(const pm_prog_mm_t *prog, Program *out) {
  return ProgramFromMm(prog, out);
}

// Translates a client's program and hands it to a family's `set_parsed` (translation status,
// program), which reports the translation's failure in its turn, after its own checks (an
// existing context comes first).
template <typename Target, typename SetParsed, typename ClientProgram>
int TranslateAndSet(const Target &target, SetParsed set_parsed, const ClientProgram *prog) {
  Program program;
  Status status = TranslateProgram(prog, &program);
  return ApplyTo(target, set_parsed, status, std::move(program));
}

// The body of a timed call: NULL `time` (named `name`) is refused, else `op` runs.
template <typename Time, typename Op>
int GuardedTimed(Time *time, const char *name, Op op) noexcept {
  return Guarded([&] { return time ? op() : NullArgument(name); });
}

}  // namespace pmapi

// Expands a parenthesized parameter list in place.
#define PMAPI_TARGET_PARAMETERS(...) __VA_ARGS__

// A call and its timed twin (pm_start and pm_tstart, pm_stop and pm_tstop): `op` gets a null
// time from the first. `alone` is the form's parameter list, `lead` the same followed by a
// comma (empty when the list is).
#define PMAPI_CALL_AND_TIMED(call, tcall, alone, lead, target, op)                              \
  int call(PMAPI_TARGET_PARAMETERS alone) {                                                     \
    return pmapi::Guarded([&] { return pmapi::ApplyTo(target, op, nullptr); });                 \
  }                                                                                             \
  int tcall(PMAPI_TARGET_PARAMETERS lead timebasestruct_t *time) {                              \
    return pmapi::GuardedTimed(time, "time", [&] { return pmapi::ApplyTo(target, op, time); }); \
  }

// Setting and getting a program of one kind (plain pm_prog_t, _mx, _mm): `get` is the family's
// operation that gives it back.
#define PMAPI_SET_AND_GET(set_call, get_call, Program, lead, target, ops, get)                   \
  int set_call(PMAPI_TARGET_PARAMETERS lead Program *prog) {                                     \
    return pmapi::Guarded([&] { return pmapi::TranslateAndSet(target, ops::SetParsed, prog); }); \
  }                                                                                              \
  int get_call(PMAPI_TARGET_PARAMETERS lead Program *prog) {                                     \
    return pmapi::Guarded([&] { return pmapi::ApplyTo(target, get, prog); });                    \
  }

// One form of a family: `suffix` names it (with its underscore; empty for pm_start ...),
// `alone` and `lead` are its parameters, `target` the expression naming its target.
#define PMAPI_FAMILY_FORM(suffix, alone, lead, target, ops)                                        \
  PMAPI_SET_AND_GET(pm_set_program##suffix, pm_get_program##suffix, pm_prog_t, lead, target, ops,  \
                    ops::Get)                                                                      \
  int pm_delete_program##suffix(PMAPI_TARGET_PARAMETERS alone) {                                   \
    return pmapi::Guarded([&] { return pmapi::ApplyTo(target, ops::Delete); });                    \
  }                                                                                                \
  PMAPI_CALL_AND_TIMED(pm_start##suffix, pm_tstart##suffix, alone, lead, target, ops::Start)       \
  PMAPI_CALL_AND_TIMED(pm_stop##suffix, pm_tstop##suffix, alone, lead, target, ops::Stop)          \
  int pm_reset_data##suffix(PMAPI_TARGET_PARAMETERS alone) {                                       \
    return pmapi::Guarded([&] { return pmapi::ApplyTo(target, ops::Reset); });                     \
  }                                                                                                \
  int pm_get_data##suffix(PMAPI_TARGET_PARAMETERS lead pm_data_t *data) {                          \
    return pmapi::Guarded(                                                                         \
        [&] { return pmapi::ApplyTo(target, ops::Read, data, nullptr, nullptr); });                \
  }                                                                                                \
  int pm_get_tdata##suffix(PMAPI_TARGET_PARAMETERS lead pm_data_t *data, timebasestruct_t *time) { \
    return pmapi::GuardedTimed(                                                                    \
        time, "time", [&] { return pmapi::ApplyTo(target, ops::Read, data, time, nullptr); });     \
  }                                                                                                \
  int pm_get_Tdata##suffix(PMAPI_TARGET_PARAMETERS lead pm_data_t *data, pm_accu_time_t *times) {  \
    return pmapi::GuardedTimed(                                                                    \
        times, "times", [&] { return pmapi::ApplyTo(target, ops::Read, data, nullptr, times); });  \
  }                                                                                                \
  PMAPI_SET_AND_GET(pm_set_program##suffix##_mx, pm_get_program##suffix##_mx, pm_prog_mx_t, lead,  \
                    target, ops, ops::GetMx)                                                       \
  PMAPI_SET_AND_GET(pm_set_program##suffix##_mm, pm_get_program##suffix##_mm, pm_prog_mm_t, lead,  \
                    target, ops, ops::GetMm)                                                       \
  int pm_get_data##suffix##_mx(PMAPI_TARGET_PARAMETERS lead pm_data_mx_t *data) {                  \
    return pmapi::Guarded([&] { return pmapi::ApplyTo(target, ops::ReadMx, data, nullptr); });     \
  }                                                                                                \
  int pm_get_tdata##suffix##_mx(PMAPI_TARGET_PARAMETERS lead pm_data_mx_t *data,                   \
                                timebasestruct_t *time) {                                          \
    return pmapi::GuardedTimed(time, "time",                                                       \
                               [&] { return pmapi::ApplyTo(target, ops::ReadMx, data, time); });   \
  }

// A family whose target its calls do not name: the caller (_mythread), the caller's group
// (_mygroup), the machine (the system-wide calls, `suffix` empty); with C linkage.
#define PMAPI_IMPLICIT_TARGET_ENTRY_POINTS(suffix, ops)                 \
  extern "C" {                                                          \
  PMAPI_FAMILY_FORM(suffix, (void), (), (pmapi::ImplicitTarget{}), ops) \
  }

// Both forms of a third-party family, (pid, tid) and (pid, tid, ptid), with C linkage.
#define PMAPI_THIRD_PARTY_ENTRY_POINTS(suffix, p_suffix, ops)                                      \
  extern "C" {                                                                                     \
  PMAPI_FAMILY_FORM(suffix, (pid_t pid, tid_t tid), (pid_t pid, tid_t tid, ),                      \
                    (pmapi::ThirdPartyIds{pid, tid, 0}), ops)                                      \
  PMAPI_FAMILY_FORM(p_suffix, (pid_t pid, tid_t tid, ptid_t ptid),                                 \
                    (pid_t pid, tid_t tid, ptid_t ptid, ), (pmapi::ThirdPartyIds{pid, tid, ptid}), \
                    ops)                                                                           \
  }
