/* SPDX-License-Identifier: MIT */
/*
 * <pmapi.h> compiles cleanly as C99 and C11 under -Wall -Wextra -pedantic
 * -Werror -Wwrite-strings, included twice and next to the system headers
 * that clients commonly include with it, and every call shape AIX clients
 * use type-checks.  Built, never run.
 */
#include <linux/perf_event.h>
#include <pthread.h>
#include <sys/types.h>

#include <pmapi.h>
#include <pmapi.h>        /* the include guard must make a second include harmless */
#include <pmapi_aix.h>    /* the companion header: thread_self() */
#include <pmapi_select.h> /* an extension: event specs into programs */

#include "static_checks.h"

/* Linux has no tid_t/ptid_t/cid_t; the header must provide all three. */
tid_t header_check_tid;
ptid_t header_check_ptid;
cid_t header_check_cid;

int header_check_calls(void);
int header_check_calls(void) {
  pm_info_t info;
  pm_info2_t info2;
  pm_groups_info_t groups;
  pm_prog_t prog;
  pm_data_t data;
  timebasestruct_t tb;
  int rc = 0;

  /* pm_init: AIX 5.1 passes two arguments, later code three, some four. */
  rc |= pm_init(PM_VERIFIED, &info);
  rc |= (int)thread_self();
  rc |= pm_init(PM_VERIFIED | PM_GET_GROUPS, &info, &groups);
  rc |= pm_init(PM_VERIFIED | PM_GET_GROUPS, &info, &groups, PM_CURRENT);
  rc |= pm_initialize(PM_VERIFIED | PM_UNVERIFIED | PM_CAVEAT, &info2, &groups, PM_CURRENT);

  /* The mode-word idiom: OR constants into w, then read bits. */
  prog.mode.w = 0;
  prog.mode.w |= PM_USER | PM_KERNEL;
  prog.mode.b.proctree = 1;
  prog.events[0] = COUNT_NOTHING;
  rc |= pm_set_program_mythread(&prog);
  rc |= pm_get_data_mythread(&data);
  rc |= pm_get_tdata_thread((pid_t)0, (tid_t)0, &data, &tb);

  /* String literals as `where`: fine in C, and a warning-free const char *. */
  pm_error("header_check", rc);
  (void)pm_strerror("header_check", rc);

  rc |= read_real_time(&tb, TIMEBASE_SZ);
  rc |= time_base_to_time(&tb, TIMEBASE_SZ);
  return rc + (int)pm_cycles();
}
