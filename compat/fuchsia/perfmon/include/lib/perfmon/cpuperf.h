/* SPDX-License-Identifier: MIT */
/* The cpuperf driver's C calls, as Intel's cpuperf driver offered them before FIDL, on a handle
 * of ours instead of a device descriptor. Each returns ZX_OK or a negative zx_status_t with
 * the same meaning as the C++ method of <lib/perfmon/controller.h> it forwards to. */
#ifndef LIBPMAPI_COMPAT_FUCHSIA_PERFMON_CPUPERF_H_
#define LIBPMAPI_COMPAT_FUCHSIA_PERFMON_CPUPERF_H_

#include <stddef.h>
#include <stdint.h>

#include "lib/perfmon/types.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef int cpuperf_handle_t;

/* Opens the controller: ZX_ERR_ALREADY_BOUND while one is open. */
zx_status_t cpuperf_open(cpuperf_handle_t *handle);
/* Terminates and closes; ZX_ERR_BAD_HANDLE for a handle not open (in a fork child, every
 * handle of the parent's: calls on it change nothing of the parent's trace). */
zx_status_t cpuperf_close(cpuperf_handle_t handle);
/* Our extension (see perfmon_target_t). */
zx_status_t cpuperf_set_target(cpuperf_handle_t handle, const perfmon_target_t *target);
/* Our extension: the executable mappings made during the last trace (see perfmon_mapping_t):
 * up to `capacity` into `mappings`, and how many there are in *count (call with capacity 0 to
 * learn it). ZX_ERR_BAD_STATE if not initialized. */
zx_status_t cpuperf_get_mappings(cpuperf_handle_t handle, perfmon_mapping_t *mappings,
                                 size_t capacity, size_t *count);
/* The last failure's explanation on this handle ("" if none); never NULL. */
const char *cpuperf_last_error(cpuperf_handle_t handle);

zx_status_t ioctl_cpuperf_get_properties(cpuperf_handle_t handle, perfmon_properties_t *props);
zx_status_t ioctl_cpuperf_alloc_trace(cpuperf_handle_t handle, const perfmon_allocation_t *alloc);
zx_status_t ioctl_cpuperf_free_trace(cpuperf_handle_t handle);
zx_status_t ioctl_cpuperf_get_alloc(cpuperf_handle_t handle, perfmon_allocation_t *alloc);
zx_status_t ioctl_cpuperf_stage_config(cpuperf_handle_t handle, const perfmon_config_t *config);
zx_status_t ioctl_cpuperf_get_config(cpuperf_handle_t handle, perfmon_config_t *config);
/* *buffer_fd: a read-only descriptor to mmap; the caller closes it. */
zx_status_t ioctl_cpuperf_get_buffer_handle(cpuperf_handle_t handle, const uint32_t *descriptor,
                                            int *buffer_fd);
zx_status_t ioctl_cpuperf_start(cpuperf_handle_t handle);
zx_status_t ioctl_cpuperf_stop(cpuperf_handle_t handle);

#ifdef __cplusplus
}
#endif

#endif
