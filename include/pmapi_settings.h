/* SPDX-License-Identifier: MIT */
/* pmapi_settings.h: libpmapi's settings, set by a call instead of the environment (AIX has no
 * such call). Include it after <pmapi.h>; link with -lpmapi.
 *
 * Every setting has an environment variable of the same name (PMAPI_EVENTS_DIR,
 * PMAPI_NO_CACHE, ...; docs/settings.md is their table and says when each one is used). The
 * library reads the environment once, when it first needs a setting; later changes to the
 * environment are not seen. These calls change the library's copy, for this process only: no
 * other thread's getenv and no child process sees them.
 *
 * pm_set_setting(name, value)
 *   Makes setting `name` take `value`, as if the environment had held it; value NULL puts back
 *   what the environment held. A switch (PMAPI_NO_*) is on for any value but "" and "0".
 *   Catalog settings (PMAPI_EVENTS_DIR, PMAPI_GROUPS_DIR, PMAPI_LIST_TRACEPOINTS,
 *   PMAPI_NO_CACHE) count only when set before the first pm_initialize; the others are used
 *   by each later pm_set_program*.
 *   Returns 0, or Pmapi_InvalidArg when `name` is NULL or not a setting.
 *
 * pm_get_setting(name, &value)
 *   Stores in *value the value in force: the text of a string setting ("" when unset), "1" or
 *   "0" for a switch. The string stays valid until the process exits (the library keeps each
 *   distinct value once: memory grows with the values set, not with the number of calls).
 *   Returns 0, or Pmapi_InvalidArg when an argument is NULL or `name` is not a setting.
 *
 * Both are safe to call from any thread, before or after pm_initialize.
 *
 * PM_NO_FORK_COUNTER
 *   PMAPI_NO_FORK_COUNTER for one program rather than the process: a bit of pm_mode_t (one of
 *   its spare bits on AIX) that a client ORs into prog.mode.w before pm_set_program*group*.
 *   That counting group opens no sched_process_fork tracepoint, and its ginfo.members counts
 *   the roots and the threads the library saw join; the process's other groups keep theirs. */
#ifndef PMAPI_SETTINGS_H
#define PMAPI_SETTINGS_H

#ifndef PM_NO_FORK_COUNTER
#define PM_NO_FORK_COUNTER (1 << 18)
#endif

#ifdef __cplusplus
extern "C" {
#endif

int pm_set_setting(const char *name, const char *value);
int pm_get_setting(const char *name, const char **value);

#ifdef __cplusplus
}
#endif

#endif /* PMAPI_SETTINGS_H */
