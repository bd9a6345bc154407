/* pmapi_catalog.h: libpmapi's extension to the event catalog (AIX has no
 * such call). Include it after <pmapi.h>; link with -lpmapi.
 *
 * pm_catalog_add_event(encoding, &id)
 *   The id of the event `encoding` names, for pm_set_program* (events[] takes
 *   it like any other id). `encoding` is what the catalog understands:
 *     - any short name it lists or knows ("PM_CYC", "cpu-clock",
 *       "perf::PERF_COUNT_SW_TASK_CLOCK", "syscalls:sys_enter_getppid",
 *       "msr/tsc"), exactly or ignoring case: the id it already has;
 *     - a kernel tracepoint "subsystem:name" created after the catalog was
 *       built (a kprobe, say): added;
 *     - a libpfm4 event string with umasks or attributes
 *       ("INST_RETIRED:ANY_P", "amd64_fam19h_zen3::RETIRED_OPS:c=2"): added.
 *   An added event gets the next id after every other one, so no id a client
 *   already holds changes and pm_initialize's lists stay as they are (the id
 *   is past maxevents, like every event counted by name only). Its status is
 *   probed as pm_initialize's are; programming it follows the filter in
 *   force, as for any id. Adding the same string again returns the same id.
 *   Added events last until the process exits; they are never listed.
 *
 *   Returns 0, or Pmapi_NoInit before pm_initialize/pm_init succeeded,
 *   Pmapi_InvalidArg for a NULL argument or an empty string,
 *   Pmapi_InvalidEvent when no tracepoint has that name and libpfm4 cannot
 *   encode it (pm_strerror's detail gives libpfm4's reason), Pmapi_Malloc_Err
 *   when memory runs out. *event_id is written only on success.
 *   Safe to call from any thread, concurrently with every other pm_* call.
 *
 * docs/catalog.md ("Adding events by name") has the details. */
#ifndef PMAPI_CATALOG_H
#define PMAPI_CATALOG_H

#include <pmapi.h>

#ifdef __cplusplus
extern "C" {
#endif

int pm_catalog_add_event(const char *encoding, int *event_id);

#ifdef __cplusplus
}
#endif

#endif /* PMAPI_CATALOG_H */
