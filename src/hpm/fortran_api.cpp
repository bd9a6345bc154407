// SPDX-License-Identifier: MIT
// The Fortran entry points, callable through ISO_C_BINDING interfaces
// (include/f_hpm.h for default integers, include/f_hpm_8.h for 8-byte ones):
// integers by reference, each character argument followed by its length by
// value, then the caller's line and file (file length 0 when not recorded).
#include <stdint.h>
#include <string.h>

#include "hpm_api.h"

namespace {

int Line(int64_t line) { return line < 0 || line > INT32_MAX ? 0 : static_cast<int>(line); }

// A Fortran file name arrives with a length, not a NUL: keep a copy the
// section may point at. Only the first start of a section reads it.
const char *FileName(const char *file, int64_t len, char (&buffer)[512]) {
  if (!file || len <= 0) return nullptr;
  size_t n =
      static_cast<size_t>(len) < sizeof buffer - 1 ? static_cast<size_t>(len) : sizeof buffer - 1;
  memcpy(buffer, file, n);
  buffer[n] = '\0';
  return buffer;
}

int Id(int64_t id) { return id < 0 || id > INT32_MAX ? -1 : static_cast<int>(id); }

void Start(int64_t id, const char *label, int64_t label_len, int64_t line, const char *file,
           int64_t file_len, bool threaded) {
  char buffer[512];
  hpm::Start(Id(id), label, label_len < 0 ? 0 : static_cast<size_t>(label_len),
             FileName(file, file_len, buffer), Line(line), threaded);
}

void Stop(int64_t id, int64_t line, const char *file, int64_t file_len) {
  char buffer[512];
  hpm::Stop(Id(id), FileName(file, file_len, buffer), Line(line));
}

int Clamp(int64_t n) { return n < 0 ? 0 : n > MAX_COUNTERS ? MAX_COUNTERS : static_cast<int>(n); }

}  // namespace

#define HPM_FORTRAN extern "C" __attribute__((visibility("default")))

HPM_FORTRAN void f_hpminit(const int *task, const char *name, int name_len) {
  hpm::Init(task ? *task : 0, name, name_len < 0 ? 0 : static_cast<size_t>(name_len), nullptr, 0);
}
HPM_FORTRAN void f_hpmterminate(const int *) { hpm::Terminate(nullptr, 0); }

// A start and its stop, of one integer type: the t-forms mark the section threaded.
#define HPM_FORTRAN_START_AND_STOP(start, stop, Int, threaded)                      \
  HPM_FORTRAN void start(const Int *id, const char *label, Int label_len, Int line, \
                         const char *file, Int file_len) {                          \
    Start(id ? *id : -1, label, label_len, line, file, file_len, threaded);         \
  }                                                                                 \
  HPM_FORTRAN void stop(const Int *id, Int line, const char *file, Int file_len) {  \
    Stop(id ? *id : -1, line, file, file_len);                                      \
  }

// The section and counter calls of one integer kind: `suffix` names the form (empty for default
// integers, _8 for 8-byte ones), `Int` its integer type; they differ in nothing else.
#define HPM_FORTRAN_SECTION_CALLS(suffix, Int)                                   \
  HPM_FORTRAN_START_AND_STOP(f_hpmstart##suffix, f_hpmstop##suffix, Int, false)  \
  HPM_FORTRAN_START_AND_STOP(f_hpmtstart##suffix, f_hpmtstop##suffix, Int, true) \
  HPM_FORTRAN void f_hpmgetcounters##suffix(long long *values) {                 \
    hpm::GetTimeAndCounters(MAX_COUNTERS, nullptr, values);                      \
  }                                                                              \
  HPM_FORTRAN void f_hpmgettimeandcounters##suffix(const Int *n, double *time,   \
                                                   long long *values) {          \
    hpm::GetTimeAndCounters(n ? Clamp(*n) : 0, time, values);                    \
  }

HPM_FORTRAN_SECTION_CALLS(, int)

// The 8-byte-integer forms (f_hpm_8.h, for -fdefault-integer-8 builds).
HPM_FORTRAN void f_hpminit_8(const int64_t *task, const char *name, int64_t name_len) {
  int t = task && *task >= 0 && *task <= INT32_MAX ? static_cast<int>(*task) : 0;
  hpm::Init(t, name, name_len < 0 ? 0 : static_cast<size_t>(name_len), nullptr, 0);
}
HPM_FORTRAN void f_hpmterminate_8(const int64_t *) { hpm::Terminate(nullptr, 0); }
HPM_FORTRAN_SECTION_CALLS(_8, int64_t)

// Without f_hpm.h: gfortran calls an external f_hpmstart(1, 'label') as
// f_hpmstart_(&id, label, hidden length as size_t). These take that form, so
// code that declares nothing still links; it records no line.
HPM_FORTRAN void f_hpminit_(const int *task, const char *name, size_t name_len) {
  hpm::Init(task ? *task : 0, name, name_len, nullptr, 0);
}
HPM_FORTRAN void f_hpmterminate_(const int *) { hpm::Terminate(nullptr, 0); }
HPM_FORTRAN void f_hpmstart_(const int *id, const char *label, size_t label_len) {
  Start(id ? *id : -1, label, static_cast<int64_t>(label_len), 0, nullptr, 0, false);
}
HPM_FORTRAN void f_hpmstop_(const int *id) { Stop(id ? *id : -1, 0, nullptr, 0); }
HPM_FORTRAN void f_hpmtstart_(const int *id, const char *label, size_t label_len) {
  Start(id ? *id : -1, label, static_cast<int64_t>(label_len), 0, nullptr, 0, true);
}
HPM_FORTRAN void f_hpmtstop_(const int *id) { Stop(id ? *id : -1, 0, nullptr, 0); }
HPM_FORTRAN void f_hpmgetcounters_(long long *values) {
  hpm::GetTimeAndCounters(MAX_COUNTERS, nullptr, values);
}
HPM_FORTRAN void f_hpmgettimeandcounters_(const int *n, double *time, long long *values) {
  hpm::GetTimeAndCounters(n ? Clamp(*n) : 0, time, values);
}
