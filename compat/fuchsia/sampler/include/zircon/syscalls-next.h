/* SPDX-License-Identifier: MIT */
/* Fuchsia's thread sampler (zx_sampler_*) on Linux, from libpmapi's compat layer.
 *
 * The calls keep Fuchsia's names, arguments, checks and status values. What is a kernel object
 * on Fuchsia is this on Linux (docs/sampler.md):
 *   - the session handle (Fuchsia's IOBuffer) is a descriptor the library owns; close it with
 *     zx_handle_close, which stops and destroys the session (close(2) on it does not);
 *   - a thread handle is a Linux thread id (gettid(2)); the caller must be allowed to profile
 *     it (same user, or root / CAP_PERFMON, per /proc/sys/kernel/perf_event_paranoid);
 *   - the per-CPU regions are shared memory: zx_sampler_region_fd gives a read-only descriptor
 *     of region i to mmap(PROT_READ, MAP_SHARED), or zx_sampler_map_region maps it for you.
 * Each region holds FXT Large BLOB records (format 0, with metadata) back to back from offset 0,
 * one per sample, then a zero word. Timestamps are ticks of CLOCK_MONOTONIC at
 * zx_ticks_per_second() ticks per second.
 * Link with `pkg-config --libs zx-sampler` (-lzx_sampler). */
#ifndef LIBPMAPI_COMPAT_FUCHSIA_ZIRCON_SYSCALLS_NEXT_H_
#define LIBPMAPI_COMPAT_FUCHSIA_ZIRCON_SYSCALLS_NEXT_H_

#include <stddef.h>
#include <stdint.h>

/* Fuchsia's types and status values. Each is guarded alone, so this header and another
 * compat header that defines some of them (e.g. <lib/perfmon/status.h>) mix in any order. */
typedef int32_t zx_status_t;
typedef uint32_t zx_handle_t;
typedef int64_t zx_duration_mono_t;
typedef int64_t zx_ticks_t;
#ifndef ZX_OK
#define ZX_OK 0
#endif
#ifndef ZX_ERR_INTERNAL
#define ZX_ERR_INTERNAL (-1)
#endif
#ifndef ZX_ERR_NOT_SUPPORTED
#define ZX_ERR_NOT_SUPPORTED (-2)
#endif
#ifndef ZX_ERR_NO_RESOURCES
#define ZX_ERR_NO_RESOURCES (-3)
#endif
#ifndef ZX_ERR_NO_MEMORY
#define ZX_ERR_NO_MEMORY (-4)
#endif
#ifndef ZX_ERR_INVALID_ARGS
#define ZX_ERR_INVALID_ARGS (-10)
#endif
#ifndef ZX_ERR_BAD_HANDLE
#define ZX_ERR_BAD_HANDLE (-11)
#endif
#ifndef ZX_ERR_OUT_OF_RANGE
#define ZX_ERR_OUT_OF_RANGE (-14)
#endif
#ifndef ZX_ERR_BAD_STATE
#define ZX_ERR_BAD_STATE (-20)
#endif
#ifndef ZX_ERR_ALREADY_EXISTS
#define ZX_ERR_ALREADY_EXISTS (-26)
#endif
#ifndef ZX_ERR_ACCESS_DENIED
#define ZX_ERR_ACCESS_DENIED (-30)
#endif
/* Not returned by the sampler; defined so that code using them compiles with this header alone
 * (another compat header may define all of them only when ZX_OK is not yet defined). */
#ifndef ZX_ERR_WRONG_TYPE
#define ZX_ERR_WRONG_TYPE (-12)
#endif
#ifndef ZX_ERR_BAD_SYSCALL
#define ZX_ERR_BAD_SYSCALL (-13)
#endif
#ifndef ZX_ERR_BUFFER_TOO_SMALL
#define ZX_ERR_BUFFER_TOO_SMALL (-15)
#endif
#ifndef ZX_ERR_TIMED_OUT
#define ZX_ERR_TIMED_OUT (-21)
#endif
#ifndef ZX_ERR_SHOULD_WAIT
#define ZX_ERR_SHOULD_WAIT (-22)
#endif
#ifndef ZX_ERR_CANCELED
#define ZX_ERR_CANCELED (-23)
#endif
#ifndef ZX_ERR_PEER_CLOSED
#define ZX_ERR_PEER_CLOSED (-24)
#endif
#ifndef ZX_ERR_NOT_FOUND
#define ZX_ERR_NOT_FOUND (-25)
#endif
#ifndef ZX_ERR_ALREADY_BOUND
#define ZX_ERR_ALREADY_BOUND (-27)
#endif
#ifndef ZX_ERR_UNAVAILABLE
#define ZX_ERR_UNAVAILABLE (-28)
#endif
#ifndef ZX_ERR_IO
#define ZX_ERR_IO (-40)
#endif
#ifndef ZX_HANDLE_INVALID
#define ZX_HANDLE_INVALID ((zx_handle_t)0)
#endif

#define ZX_SAMPLER_MIN_PERIOD ((zx_duration_mono_t)10000) /* 10 us */
#define ZX_SAMPLER_MAX_BUFFER_SIZE ((size_t)1 << 30)      /* 1 GiB per CPU */
#define ZX_IOB_DISCIPLINE_TYPE_NONE ((uint64_t)0)
#define ZX_SAMPLER_MAX_FRAMES 64

typedef struct zx_sampler_config {
  zx_duration_mono_t period;    /* CPU time of a thread between two of its samples, ns */
  size_t buffer_size;           /* bytes per CPU region, rounded up to the page size */
  uint64_t iobuffer_discipline; /* ZX_IOB_DISCIPLINE_TYPE_NONE */
} zx_sampler_config_t;

#ifdef __cplusplus
extern "C" {
#endif

/* Creates the one sampling session. `resource` is not checked on Linux (privilege is checked
 * per thread at attach). ZX_ERR_INVALID_ARGS: options != 0, config NULL, a non-zero discipline,
 * buffer_size 0 or above ZX_SAMPLER_MAX_BUFFER_SIZE, period below ZX_SAMPLER_MIN_PERIOD (in
 * that order); ZX_ERR_ALREADY_EXISTS while another session lives; ZX_ERR_NO_MEMORY or
 * ZX_ERR_NO_RESOURCES when the regions or descriptors cannot be had. */
zx_status_t zx_sampler_create(zx_handle_t resource, uint64_t options,
                              const zx_sampler_config_t* config, zx_handle_t* session_out);

/* Samples thread `thread` (a Linux tid) from the next start, or at once while started.
 * ZX_ERR_BAD_STATE: no session, or the thread does not exist (any more); ZX_ERR_BAD_HANDLE:
 * `session` is not the session's handle, or thread is 0; ZX_ERR_ACCESS_DENIED: the caller may
 * not profile that thread (zx_sampler_last_error() names perf_event_paranoid). Attaching a
 * thread twice samples it once. */
zx_status_t zx_sampler_attach(zx_handle_t session, zx_handle_t thread);

/* Linux extension: attach `thread` and, as the kernel creates them, every thread and process
 * it creates from now on (what a profiler watching for new threads does, without a window in
 * which a new thread goes unsampled). */
#define ZX_SAMPLER_ATTACH_DESCENDANTS ((uint32_t)1)
zx_status_t zx_sampler_attach_etc(zx_handle_t session, zx_handle_t thread, uint32_t options);

/* Starts sampling every attached thread. ZX_ERR_BAD_STATE if already started (or no session);
 * ZX_ERR_BAD_HANDLE for another handle. Restarting after a stop appends to the regions. */
zx_status_t zx_sampler_start(zx_handle_t session);

/* Stops sampling; when it returns, every sample taken is in the regions and no more will be
 * written. ZX_ERR_BAD_STATE if not started; ZX_ERR_BAD_HANDLE for another handle. */
zx_status_t zx_sampler_stop(zx_handle_t session);

/* Closes a handle: the session's stops it (if started) and destroys it, unmapping nothing the
 * caller mapped (those mappings stay readable until the caller unmaps them).
 * ZX_ERR_BAD_HANDLE for any other value. */
zx_status_t zx_handle_close(zx_handle_t handle);

/* What Fuchsia's ZX_INFO_IOB / ZX_INFO_IOB_REGIONS tell, plus what Linux adds. */
typedef struct zx_sampler_info {
  uint32_t region_count;     /* one per possible CPU */
  uint32_t running;          /* 1 between start and stop */
  uint64_t region_size;      /* bytes, a multiple of the page size */
  uint64_t ticks_per_second; /* the records' timestamp rate */
  uint64_t samples_written;  /* records in the regions */
  uint64_t samples_dropped;  /* taken but not written: their region was full */
  uint64_t samples_lost;     /* the kernel could not hand them over in time (PERF_RECORD_LOST) */
  uint64_t full_regions;     /* bit i: region i filled and stopped taking samples */
  uint32_t attached_threads;
  uint32_t kernel_time_sampled; /* 1: time in system calls is sampled too (privileged) */
} zx_sampler_info_t;

zx_status_t zx_sampler_get_info(zx_handle_t session, zx_sampler_info_t* info);

/* A new read-only descriptor of region `index` (the caller closes it), to mmap with PROT_READ
 * and MAP_SHARED. ZX_ERR_OUT_OF_RANGE for an index >= region_count. */
zx_status_t zx_sampler_region_fd(zx_handle_t session, uint32_t index, int* fd_out);

/* Maps region `index` read-only: *data, *size; release with munmap(*data, *size). */
zx_status_t zx_sampler_map_region(zx_handle_t session, uint32_t index, const void** data,
                                  size_t* size);

/* The timestamp rate and clock of the records (CLOCK_MONOTONIC, in ns on Linux). */
zx_ticks_t zx_ticks_per_second(void);
zx_ticks_t zx_ticks_get(void);

/* The calling thread's explanation of its last failed zx_sampler_* call ("" after success). */
const char* zx_sampler_last_error(void);

/* "ZX_ERR_BAD_STATE" for -20, "ZX_ERR_UNKNOWN" for a value not defined above. */
const char* zx_sampler_status_name(zx_status_t status);

#ifdef __cplusplus
}
#endif

#endif
