// SPDX-License-Identifier: MIT
// <pmapi.h> compiles cleanly as C++11 and C++17 under -Wall -Wextra
// -pedantic -Werror -Wwrite-strings: extern "C", no C-only constructs, and
// string literals accepted as `where` (Jikes RVM's hpm.c passes them).
// Built, never run.
#include <linux/perf_event.h>
#include <pthread.h>
#include <sys/types.h>

#include <cstdio>

#include <pmapi.h>
#include <pmapi.h>         // the include guard must make a second include harmless
#include <pmapi_aix.h>     // the companion header: thread_self()
#include <pmapi_select.h>  // an extension: event specs into programs

#include "static_checks.h"

static_assert(sizeof(tid_t) > 0 && sizeof(ptid_t) > 0 && sizeof(cid_t) > 0, "typedefs");

// Linkage check: a C++ caller must bind to the unmangled C symbols.
extern "C" int (*header_check_init2)(int, pm_info_t *, ...);
int (*header_check_init2)(int, pm_info_t *, ...) = &pm_init;
char *(*header_check_strerror)(const char *, int) = &pm_strerror;

int header_check_calls_cxx();
int header_check_calls_cxx() {
  pm_info_t info;
  pm_info2_t info2;
  pm_groups_info_t groups;
  pm_prog_t prog = pm_prog_t();
  timebasestruct_t tb;
  int rc = 0;

  rc |= pm_init(PM_VERIFIED, &info);
  rc |= static_cast<int>(thread_self());
  rc |= pm_init(PM_VERIFIED | PM_GET_GROUPS, &info, &groups);
  rc |= pm_init(PM_VERIFIED | PM_GET_GROUPS, &info, &groups, PM_CURRENT);
  rc |= pm_initialize(PM_VERIFIED, &info2, &groups, PM_CURRENT);

  prog.mode.w |= PM_USER;
  prog.mode.b.kernel = 1;
  rc |= pm_set_program(&prog);

  pm_error("header_check", rc);
  std::puts(pm_strerror("header_check", rc));

  rc |= read_real_time(&tb, TIMEBASE_SZ);
  return rc | time_base_to_time(&tb, TIMEBASE_SZ);
}
