/* SPDX-License-Identifier: MIT */
/* <pmapi_session.h> compiles alone, strictly, in C and C++, with or without <pmapi.h>, and its
 * calls have the documented types. */
#include <pmapi_session.h>
#include <pmapi_session.h> /* the include guard makes a second include harmless */

typedef int (*create_fn)(int, pm_session_t **);
typedef void (*destroy_fn)(pm_session_t *);
typedef int (*add_events_fn)(pm_session_t *, const char *, int *);
typedef int (*nevents_fn)(const pm_session_t *, int *);
typedef int (*event_info_fn)(const pm_session_t *, int, pm_session_event_t *);
typedef int (*add_task_fn)(pm_session_t *, pid_t);
typedef int (*add_cpus_fn)(pm_session_t *, const int *, int);
typedef int (*add_cgroup_fn)(pm_session_t *, const char *, const int *, int);
typedef int (*control_fn)(pm_session_t *);
typedef int (*read_fn)(pm_session_t *, pm_session_count_t *, int);
typedef int (*read_part_fn)(pm_session_t *, int, pm_session_count_t *, int);

int session_header_compiles(void);
int session_header_compiles(void) {
  create_fn create = pm_session_create;
  destroy_fn destroy = pm_session_destroy;
  add_events_fn add_events = pm_session_add_events;
  nevents_fn nevents = pm_session_nevents;
  event_info_fn info = pm_session_event_info;
  add_task_fn thread = pm_session_add_thread, process = pm_session_add_process;
  add_cpus_fn cpus = pm_session_add_cpus;
  add_cgroup_fn cgroup = pm_session_add_cgroup;
  control_fn open = pm_session_open, start = pm_session_start, stop = pm_session_stop,
             reset = pm_session_reset;
  read_fn read = pm_session_read;
  read_part_fn read_cpu = pm_session_read_cpu, read_target = pm_session_read_target;
  pm_session_event_t event;
  pm_session_count_t count;
  event.kind = PM_SESSION_HARDWARE + PM_SESSION_SOFTWARE + PM_SESSION_TRACEPOINT + PM_SESSION_PMU;
  count.value = 0;
  return (create != 0) + (destroy != 0) + (add_events != 0) + (nevents != 0) + (info != 0) +
         (thread != 0) + (process != 0) + (cpus != 0) + (cgroup != 0) + (open != 0) + (start != 0) +
         (stop != 0) + (reset != 0) + (read != 0) + (read_cpu != 0) + (read_target != 0) +
         event.kind + (int)count.value + (int)sizeof(char[PM_SESSION_NAME_MAX]);
}
