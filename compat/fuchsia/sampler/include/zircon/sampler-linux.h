/* SPDX-License-Identifier: MIT */
/* Linux-only additions to the thread sampler (<zircon/syscalls-next.h>): the task events a
 * profiler needs to symbolize samples of processes that may be gone when it reads them, and
 * DWARF unwinding of the sampled stacks (zx_sampler_set_unwind, LIBZX_SAMPLER_0.2). */
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

/* How the user stacks of the threads attached from now on are unwound (LIBZX_SAMPLER_0.2).
 *
 * ZX_SAMPLER_UNWIND_FRAME_POINTERS, the default: the kernel follows the frame-pointer chain at
 *   each sample; code built without frame pointers (-fomit-frame-pointer, the default of -O2 on
 *   x86-64) loses its callers.
 * ZX_SAMPLER_UNWIND_DWARF: each sample also copies the user registers and the top `stack_bytes`
 *   of the user stack (0: ZX_SAMPLER_UNWIND_DEFAULT_STACK, 8 KiB, as perf's --call-graph dwarf;
 *   a multiple of 8 up to ZX_SAMPLER_UNWIND_MAX_STACK), which the library's drainer unwinds
 *   with libdw by the code's call frame information (.eh_frame, .debug_frame). The sample
 *   records keep their format (PCs only). Frames deeper than the copy are cut off; a sample
 *   whose PC has no CFI (the vDSO, generated code) keeps its frame-pointer chain. It costs the
 *   copy in the ring of every sample and the unwinding on the library's thread
 *   (docs/performance.md).
 *
 * Only before the first zx_sampler_attach*: ZX_ERR_BAD_STATE after. ZX_ERR_INVALID_ARGS for an
 * unknown method or a bad size, ZX_ERR_NOT_SUPPORTED where DWARF unwinding is not supported
 * (architectures other than x86-64 and aarch64). */
#define ZX_SAMPLER_UNWIND_FRAME_POINTERS 0u
#define ZX_SAMPLER_UNWIND_DWARF 1u
#define ZX_SAMPLER_UNWIND_DEFAULT_STACK 8192u
#define ZX_SAMPLER_UNWIND_MAX_STACK 65528u

zx_status_t zx_sampler_set_unwind(zx_handle_t session, uint32_t method, uint32_t stack_bytes);

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
