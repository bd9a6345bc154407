/* SPDX-License-Identifier: MIT */
// What the C and the Fortran entry points share: the run in progress and the
// calls that begin and end one. The public declarations get default
// visibility here (the library is built with -fvisibility=hidden).
#pragma once

#include <stddef.h>
#include <stdio.h>

#ifndef LIBHPM_NO_MACROS
#define LIBHPM_NO_MACROS  // the functions themselves are defined here
#endif
#pragma GCC visibility push(default)
#include "libhpm.h"
#pragma GCC visibility pop

#include "run.h"

namespace hpm {

// The run in progress; null, with the bad use reported, when there is none. Call inside a
// RunUse (run_use.h), which keeps the run from being freed until it ends.
Run *CurrentRun(const char *file, int line);
// program_len: SIZE_MAX when NUL-terminated; trailing blanks are dropped.
void Init(int task_id, const char *program, size_t program_len, const char *file, int line);
void Terminate(const char *file, int line);
// A section's start and stop from any entry point (label_len as program_len); nothing but the
// bad use reported when no run is in progress.
void Start(int id, const char *label, size_t label_len, const char *file, int line, bool threaded);
void Stop(int id, const char *file, int line);
void GetTimeAndCounters(int num_counters, double *time, long long *values);

}  // namespace hpm
