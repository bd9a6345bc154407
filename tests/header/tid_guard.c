/* SPDX-License-Identifier: MIT */
/*
 * A platform or compatibility header that already defines tid_t, ptid_t or
 * cid_t announces it with _PMAPI_TID_T / _PMAPI_PTID_T / _PMAPI_CID_T, and
 * <pmapi.h> must then leave them alone.  The types below deliberately differ
 * from the header's own choices, so a missing guard is a "conflicting types"
 * error.  Compiled as C and as C++.
 */
#include <sys/types.h>

#define _PMAPI_TID_T
typedef long tid_t;
#define _PMAPI_PTID_T
typedef unsigned long ptid_t;
#define _PMAPI_CID_T
typedef unsigned int cid_t;

#include <pmapi.h>

#include "static_checks.h"

PMAPI_CHECK(sizeof(tid_t) == sizeof(long), tid_kept);
PMAPI_CHECK(sizeof(ptid_t) == sizeof(unsigned long), ptid_kept);
PMAPI_CHECK(sizeof(cid_t) == sizeof(unsigned int), cid_kept);

/* The entry points then take the caller's types. */
int tid_guard_call(void);
int tid_guard_call(void) {
  tid_t tid = 0;
  ptid_t ptid = 0;
  return pm_start_pthread((pid_t)0, tid, ptid) + pm_start_wp((cid_t)0);
}
