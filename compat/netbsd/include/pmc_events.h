/* SPDX-License-Identifier: MIT */
/*
 * <pmc_events.h> - libpmapi extension to NetBSD's <sys/pmc.h>: finding the
 * event ids that struct pmc_counter_cfg takes.  NetBSD had no such call (its
 * ids came from processor manuals); here an id is a libpmapi catalog id, the
 * same number pm_initialize lists, and these calls look ids up by name.
 */
#ifndef _LIBPMAPI_COMPAT_PMC_EVENTS_H_
#define _LIBPMAPI_COMPAT_PMC_EVENTS_H_

#include <sys/pmc.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The id of the event named `name` ("task-clock", "syscalls:sys_enter_getppid";
 * exact match first, then case-insensitive).  0, or -1 with errno ENOENT
 * (no such event) or EFAULT (name is NULL). */
int pmc_event_lookup(const char *name, pmc_evid_t *id);

/* The number of events in the catalog, for iterating with pmc_event_get. */
int pmc_event_count(void);

/* Event number `index` (0 <= index < pmc_event_count()): its id, short name
 * and description (either pointer may be NULL; the strings live until exit).
 * 0, or -1 with errno EINVAL (index out of range). */
int pmc_event_get(int index, pmc_evid_t *id, const char **name, const char **description);

#ifdef __cplusplus
}
#endif

#endif /* _LIBPMAPI_COMPAT_PMC_EVENTS_H_ */
