/* SPDX-License-Identifier: MIT */
/* pmapi_aix.h: the few AIX libc neighbours of pmapi that clients call along
 * with the thread families, where Linux has an exact equivalent
 * (docs/porting.md). Include it after <pmapi.h>, or instead of AIX's headers
 * that declare these. Nothing here needs -lpmapi.
 *
 *   thread_self()  AIX: the calling kernel thread's id (tid_t), the id the
 *                  pm_*_thread calls take. Linux: gettid(2), the same id
 *                  pm_set_program_thread and friends take here.
 *
 * Define PMAPI_NO_AIX_NEIGHBOURS to leave them out (a program that has its
 * own thread_self, say). */
#ifndef PMAPI_AIX_H
#define PMAPI_AIX_H

#include <pmapi.h>

#ifndef PMAPI_NO_AIX_NEIGHBOURS
#include <sys/syscall.h>
#include <unistd.h>

#ifdef __cplusplus
extern "C" {
#endif

/* <unistd.h> declares syscall(2) only with the default or GNU feature set; a
 * strict -std=c11 client gets its declaration here (the same prototype). */
#if !defined(__cplusplus) && !defined(__USE_MISC) && !defined(_GNU_SOURCE) &&  \
    !defined(_DEFAULT_SOURCE) && !defined(_BSD_SOURCE)
extern long syscall(long number, ...);
#endif

static inline tid_t thread_self(void) { return (tid_t)syscall(SYS_gettid); }

#ifdef __cplusplus
}
#endif
#endif /* PMAPI_NO_AIX_NEIGHBOURS */

#endif /* PMAPI_AIX_H */
