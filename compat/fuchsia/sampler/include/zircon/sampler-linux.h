/* Linux-only additions to the thread sampler (<zircon/syscalls-next.h>): the task events a
 * profiler needs to symbolize samples of processes that may be gone when it reads them. */
#ifndef LIBPMAPI_COMPAT_FUCHSIA_ZIRCON_SAMPLER_LINUX_H_
#define LIBPMAPI_COMPAT_FUCHSIA_ZIRCON_SAMPLER_LINUX_H_

#include <zircon/syscalls-next.h>

#ifdef __cplusplus
extern "C" {
#endif

#define ZX_SAMPLER_TASK_MAP 1  /* an executable file mapping: start, length, file_offset, name */
#define ZX_SAMPLER_TASK_NAME 2 /* a thread's name (comm), name */
#define ZX_SAMPLER_TASK_EXEC 3 /* the process exec'd; name is the new comm */
#define ZX_SAMPLER_TASK_FORK 4 /* a new thread or process: parent_pid, parent_tid */
#define ZX_SAMPLER_TASK_EXIT 5 /* a thread exited */

typedef struct zx_sampler_task_event {
  uint32_t kind;
  uint32_t pid, tid;
  uint32_t parent_pid, parent_tid;
  zx_ticks_t ticks;
  uint64_t start, length, file_offset;
  const char* name; /* valid during the call only */
} zx_sampler_task_event_t;

typedef void (*zx_sampler_task_event_fn)(void* context, const zx_sampler_task_event_t* event);

/* Reports the mappings, names, forks, execs and exits of the threads attached from now on,
 * in time order per CPU, on a thread of the library's (or in zx_sampler_stop): `fn` must not
 * call zx_sampler_* itself. fn NULL turns it off for later attaches. */
zx_status_t zx_sampler_set_task_events(zx_handle_t session, zx_sampler_task_event_fn fn,
                                       void* context);

/* Samples the threads attached from now on every config->period events of the perf event
 * `type`, `config` (<linux/perf_event.h>: PERF_TYPE_HARDWARE and PERF_COUNT_HW_INSTRUCTIONS
 * samples a thread every period instructions it retires) instead of every period ns of its CPU
 * time, which is PERF_TYPE_SOFTWARE and PERF_COUNT_SW_TASK_CLOCK, the default. An event the
 * kernel cannot count or sample is refused when a thread is attached. */
zx_status_t zx_sampler_set_event(zx_handle_t session, uint32_t type, uint64_t config);

#ifdef __cplusplus
}
#endif

#endif
