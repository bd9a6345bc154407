// The C entry points of the third-party families, written once. _thread/_pthread and
// _group/_pgroup have the same 34 entry points each: 11 plain calls and 6 _mx/_mm calls, in a
// (pid, tid) form and a (pid, tid, ptid) form, every one a shim that runs its family's
// operation inside Guarded (c_boundary.h), the t-variants refusing a NULL time first. Only the
// operations differ, so a family defines them in a namespace and expands, at file scope:
//
//   PMAPI_THIRD_PARTY_ENTRY_POINTS(thread, pthread, thread_family)
//
// which defines pm_set_program_thread ... pm_get_Tdata_pthread and pm_set_program_thread_mx
// ... pm_get_tdata_pthread_mx. The namespace provides, each taking (pid, tid, ptid) first:
//   SetParsed(parsed, program), Get(prog), Delete(), Start(time), Stop(time), Reset(),
//   Read(data, time, times), GetMx(prog), GetMm(prog), ReadMx(data, time)
// (time and times may be null, as the untimed calls pass them). The compiler holds each
// definition to its declaration in pmapi.h, and tests/api/family_matrix_test.cpp and
// tests/api/entry_points_test.cpp call every one.
#pragma once

#include "api/c_boundary.h"
#include "api/context_ops.h"
#include "api/export.h"
#include "api/third_party_target.h"

// Expands a parenthesized parameter list in place.
#define PMAPI_TARGET_PARAMETERS(...) __VA_ARGS__

// One form of a family: `suffix` names it, `params` is its parenthesized target parameters,
// `ptid` what it passes for the pthread id.
#define PMAPI_THIRD_PARTY_FORM(suffix, params, ptid, ops)                                         \
  int pm_set_program_##suffix(PMAPI_TARGET_PARAMETERS params, pm_prog_t *prog) {                  \
    return pmapi::Guarded(                                                                        \
        [&] { return pmapi::TranslateAndSet(ops::SetParsed, pid, tid, ptid, prog); });            \
  }                                                                                               \
  int pm_get_program_##suffix(PMAPI_TARGET_PARAMETERS params, pm_prog_t *prog) {                  \
    return pmapi::Guarded([&] { return ops::Get(pid, tid, ptid, prog); });                        \
  }                                                                                               \
  int pm_delete_program_##suffix(PMAPI_TARGET_PARAMETERS params) {                                \
    return pmapi::Guarded([&] { return ops::Delete(pid, tid, ptid); });                           \
  }                                                                                               \
  int pm_start_##suffix(PMAPI_TARGET_PARAMETERS params) {                                         \
    return pmapi::Guarded([&] { return ops::Start(pid, tid, ptid, nullptr); });                   \
  }                                                                                               \
  int pm_tstart_##suffix(PMAPI_TARGET_PARAMETERS params, timebasestruct_t *time) {                \
    return pmapi::Guarded(                                                                        \
        [&] { return time ? ops::Start(pid, tid, ptid, time) : pmapi::NullArgument("time"); });   \
  }                                                                                               \
  int pm_stop_##suffix(PMAPI_TARGET_PARAMETERS params) {                                          \
    return pmapi::Guarded([&] { return ops::Stop(pid, tid, ptid, nullptr); });                    \
  }                                                                                               \
  int pm_tstop_##suffix(PMAPI_TARGET_PARAMETERS params, timebasestruct_t *time) {                 \
    return pmapi::Guarded(                                                                        \
        [&] { return time ? ops::Stop(pid, tid, ptid, time) : pmapi::NullArgument("time"); });    \
  }                                                                                               \
  int pm_reset_data_##suffix(PMAPI_TARGET_PARAMETERS params) {                                    \
    return pmapi::Guarded([&] { return ops::Reset(pid, tid, ptid); });                            \
  }                                                                                               \
  int pm_get_data_##suffix(PMAPI_TARGET_PARAMETERS params, pm_data_t *data) {                     \
    return pmapi::Guarded([&] { return ops::Read(pid, tid, ptid, data, nullptr, nullptr); });     \
  }                                                                                               \
  int pm_get_tdata_##suffix(PMAPI_TARGET_PARAMETERS params, pm_data_t *data,                      \
                            timebasestruct_t *time) {                                             \
    return pmapi::Guarded([&] {                                                                   \
      return time ? ops::Read(pid, tid, ptid, data, time, nullptr) : pmapi::NullArgument("time"); \
    });                                                                                           \
  }                                                                                               \
  int pm_get_Tdata_##suffix(PMAPI_TARGET_PARAMETERS params, pm_data_t *data,                      \
                            pm_accu_time_t *times) {                                              \
    return pmapi::Guarded([&] {                                                                   \
      return times ? ops::Read(pid, tid, ptid, data, nullptr, times)                              \
                   : pmapi::NullArgument("times");                                                \
    });                                                                                           \
  }                                                                                               \
  int pm_set_program_##suffix##_mx(PMAPI_TARGET_PARAMETERS params, pm_prog_mx_t *prog) {          \
    return pmapi::Guarded(                                                                        \
        [&] { return pmapi::TranslateAndSet(ops::SetParsed, pid, tid, ptid, prog); });            \
  }                                                                                               \
  int pm_set_program_##suffix##_mm(PMAPI_TARGET_PARAMETERS params, pm_prog_mm_t *prog) {          \
    return pmapi::Guarded(                                                                        \
        [&] { return pmapi::TranslateAndSet(ops::SetParsed, pid, tid, ptid, prog); });            \
  }                                                                                               \
  int pm_get_program_##suffix##_mx(PMAPI_TARGET_PARAMETERS params, pm_prog_mx_t *prog) {          \
    return pmapi::Guarded([&] { return ops::GetMx(pid, tid, ptid, prog); });                      \
  }                                                                                               \
  int pm_get_program_##suffix##_mm(PMAPI_TARGET_PARAMETERS params, pm_prog_mm_t *prog) {          \
    return pmapi::Guarded([&] { return ops::GetMm(pid, tid, ptid, prog); });                      \
  }                                                                                               \
  int pm_get_data_##suffix##_mx(PMAPI_TARGET_PARAMETERS params, pm_data_mx_t *data) {             \
    return pmapi::Guarded([&] { return ops::ReadMx(pid, tid, ptid, data, nullptr); });            \
  }                                                                                               \
  int pm_get_tdata_##suffix##_mx(PMAPI_TARGET_PARAMETERS params, pm_data_mx_t *data,              \
                                 timebasestruct_t *time) {                                        \
    return pmapi::Guarded([&] {                                                                   \
      return time ? ops::ReadMx(pid, tid, ptid, data, time) : pmapi::NullArgument("time");        \
    });                                                                                           \
  }

// Both forms of a family, with C linkage.
#define PMAPI_THIRD_PARTY_ENTRY_POINTS(suffix, p_suffix, ops)                      \
  extern "C" {                                                                     \
  PMAPI_THIRD_PARTY_FORM(suffix, (pid_t pid, tid_t tid), 0, ops)                   \
  PMAPI_THIRD_PARTY_FORM(p_suffix, (pid_t pid, tid_t tid, ptid_t ptid), ptid, ops) \
  }
