// SPDX-License-Identifier: MIT
// The C front end: the cpuperf driver's calls on a handle. One handle can be open at a time
// (the device is shared with the C++ Controller); a handle number is never reused, so a stale
// one gets ZX_ERR_BAD_HANDLE, not someone else's trace. A fork child holds none of its parent's
// handles: there the parent's gets ZX_ERR_BAD_HANDLE too. No exception leaves these functions.
#include "lib/perfmon/cpuperf.h"

#include <mutex>
#include <new>

#include "core/sampling_session.h"
#include "engine.h"

namespace {

perfmon::Engine *g_engine = nullptr;  // guarded by CallLock
cpuperf_handle_t g_handle = 0;
cpuperf_handle_t g_next_handle = 1;
thread_local std::string t_last_error;

// Held for the whole of every call: the core's lock for sampling front ends, which a fork waits
// for, so a child never inherits it held.
std::unique_lock<std::mutex> CallLock() {
  return std::unique_lock<std::mutex>(pmapi::SamplingSession::FrontEndCalls());
}

// In a child of fork, after the core let go of the trace's events and rings: the parent's engine
// is dropped (its buffers are this process's copies) and its handle is unknown here.
void ForgetParentsHandleInChild() {
  delete g_engine;  // inherited: abandons, touching nothing of the parent's
  g_engine = nullptr;
  g_handle = 0;
}

// Runs `call` on the engine of `handle` (the handle stays valid meanwhile: calls on one handle
// are serialized with close).
template <typename Call>
zx_status_t OnHandle(cpuperf_handle_t handle, Call &&call) {
  try {
    auto lock = CallLock();
    if (!g_engine || handle != g_handle) return ZX_ERR_BAD_HANDLE;
    return call(*g_engine);
  } catch (const std::bad_alloc &) {
    return ZX_ERR_NO_MEMORY;
  } catch (...) {
    return ZX_ERR_INTERNAL;
  }
}

}  // namespace

extern "C" {

zx_status_t cpuperf_open(cpuperf_handle_t *handle) {
  if (!handle) return ZX_ERR_INVALID_ARGS;
  try {
    pmapi::SamplingSession::AtForkInChild(&ForgetParentsHandleInChild);
    auto lock = CallLock();
    if (!perfmon::ClaimDevice()) return ZX_ERR_ALREADY_BOUND;
    g_engine = new perfmon::Engine;
    g_handle = g_next_handle++;
    if (g_next_handle <= 0) g_next_handle = 1;
    *handle = g_handle;
    return ZX_OK;
  } catch (...) {
    perfmon::ReleaseDevice();
    return ZX_ERR_NO_MEMORY;
  }
}

zx_status_t cpuperf_close(cpuperf_handle_t handle) {
  auto lock = CallLock();
  if (!g_engine || handle != g_handle) return ZX_ERR_BAD_HANDLE;
  delete g_engine;  // terminates
  g_engine = nullptr;
  g_handle = 0;
  perfmon::ReleaseDevice();
  return ZX_OK;
}

zx_status_t cpuperf_set_target(cpuperf_handle_t handle, const perfmon_target_t *target) {
  if (!target) return ZX_ERR_INVALID_ARGS;
  return OnHandle(handle, [&](perfmon::Engine &e) { return e.SetTarget(*target); });
}

zx_status_t cpuperf_get_mappings(cpuperf_handle_t handle, perfmon_mapping_t *mappings,
                                 size_t capacity, size_t *count) {
  if (!count || (capacity > 0 && !mappings)) return ZX_ERR_INVALID_ARGS;
  return OnHandle(handle, [&](perfmon::Engine &e) {
    std::vector<perfmon_mapping_t> all;
    zx_status_t status = e.GetMappings(&all);
    if (status != ZX_OK) return status;
    *count = all.size();
    for (size_t i = 0; i < all.size() && i < capacity; ++i) mappings[i] = all[i];
    return ZX_OK;
  });
}

const char *cpuperf_last_error(cpuperf_handle_t handle) {
  zx_status_t status = OnHandle(handle, [&](perfmon::Engine &e) {
    t_last_error = e.last_error();
    return ZX_OK;
  });
  if (status == ZX_ERR_BAD_HANDLE) return "not an open cpuperf handle";
  return status == ZX_OK ? t_last_error.c_str() : "";
}

zx_status_t ioctl_cpuperf_get_properties(cpuperf_handle_t handle, perfmon_properties_t *props) {
  if (!props) return ZX_ERR_INVALID_ARGS;
  return OnHandle(handle, [&](perfmon::Engine &e) {
    *props = e.GetProperties();
    return ZX_OK;
  });
}

zx_status_t ioctl_cpuperf_alloc_trace(cpuperf_handle_t handle, const perfmon_allocation_t *alloc) {
  if (!alloc) return ZX_ERR_INVALID_ARGS;
  return OnHandle(handle, [&](perfmon::Engine &e) { return e.Initialize(*alloc); });
}

zx_status_t ioctl_cpuperf_free_trace(cpuperf_handle_t handle) {
  return OnHandle(handle, [&](perfmon::Engine &e) {
    e.Terminate();
    return ZX_OK;
  });
}

zx_status_t ioctl_cpuperf_get_alloc(cpuperf_handle_t handle, perfmon_allocation_t *alloc) {
  if (!alloc) return ZX_ERR_INVALID_ARGS;
  return OnHandle(handle, [&](perfmon::Engine &e) { return e.GetAllocation(alloc); });
}

zx_status_t ioctl_cpuperf_stage_config(cpuperf_handle_t handle, const perfmon_config_t *config) {
  if (!config) return ZX_ERR_INVALID_ARGS;
  return OnHandle(handle, [&](perfmon::Engine &e) { return e.StageConfig(*config); });
}

zx_status_t ioctl_cpuperf_get_config(cpuperf_handle_t handle, perfmon_config_t *config) {
  if (!config) return ZX_ERR_INVALID_ARGS;
  return OnHandle(handle, [&](perfmon::Engine &e) { return e.GetConfig(config); });
}

zx_status_t ioctl_cpuperf_get_buffer_handle(cpuperf_handle_t handle, const uint32_t *descriptor,
                                            int *buffer_fd) {
  if (!descriptor || !buffer_fd) return ZX_ERR_INVALID_ARGS;
  return OnHandle(handle,
                  [&](perfmon::Engine &e) { return e.GetBufferHandle(*descriptor, buffer_fd); });
}

zx_status_t ioctl_cpuperf_start(cpuperf_handle_t handle) {
  return OnHandle(handle, [&](perfmon::Engine &e) { return e.Start(); });
}

zx_status_t ioctl_cpuperf_stop(cpuperf_handle_t handle) {
  return OnHandle(handle, [&](perfmon::Engine &e) {
    e.Stop();
    return ZX_OK;
  });
}

}  // extern "C"
