// SPDX-License-Identifier: MIT
// The C entry points: one live session at most, found by its handle; every call validates in
// Fuchsia's order, records why it failed for zx_sampler_last_error, and lets no exception out.
// A child of fork holds none of its parent's sessions: the core lets go of everything the
// session shares with the parent, then ForgetSessionInChild of the rest; the handle is then the
// parent's (ZX_ERR_BAD_HANDLE).
#include <time.h>

#include <memory>
#include <mutex>
#include <new>
#include <string>

#include "base/clock.h"
#include "core/sampling_session.h"
#include "fuchsia_common/zx_status_names.h"
#include "session.h"

#define ZX_SAMPLER_EXPORT extern "C" __attribute__((visibility("default")))

namespace {

std::unique_ptr<zx_sampler::Session> g_session;  // guarded by CallLock
thread_local std::string t_last_error;
// In a child of fork, the parent's session's handle, for the message; -1 elsewhere.
int g_parents_handle = -1;

// Held for the whole of every call that touches the session: the core's lock for sampling front
// ends, which a fork waits for, so a child never inherits it held.
std::unique_lock<std::mutex> CallLock() {
  return std::unique_lock<std::mutex>(pmapi::SamplingSession::FrontEndCalls());
}

// In a child of fork, after the core let go of everything the session shares with the parent:
// the session is destroyed (which frees only this process's copies), its handle kept for the
// message.
void ForgetSessionInChild() {
  if (!g_session) return;
  g_parents_handle = g_session->handle();
  g_session.reset();
}

zx_status_t Fail(zx_status_t status, std::string message) {
  t_last_error = std::move(message);
  return status;
}

// The session for `handle` with CallLock held, or the status Fuchsia returns: BAD_STATE when no
// sampler exists, BAD_HANDLE when the handle is not the sampler's.
zx_status_t Find(zx_handle_t handle, zx_sampler::Session** session) {
  if (static_cast<int>(handle) == g_parents_handle &&
      (!g_session || static_cast<int>(handle) != g_session->handle()))
    return Fail(ZX_ERR_BAD_HANDLE,
                "handle " + std::to_string(handle) +
                    " is the parent process's sampler session: a child of fork holds none of "
                    "its parent's sessions (create one of its own)");
  if (!g_session) return Fail(ZX_ERR_BAD_STATE, "no sampler session exists");
  if (static_cast<int>(handle) != g_session->handle())
    return Fail(ZX_ERR_BAD_HANDLE, "handle " + std::to_string(handle) +
                                       " is not the sampler session's (" +
                                       std::to_string(g_session->handle()) + ")");
  *session = g_session.get();
  return ZX_OK;
}

// Runs `body` with no exception escaping; clears the last error first.
template <typename Body>
zx_status_t Guarded(Body body) {
  t_last_error.clear();
  try {
    return body();
  } catch (const std::bad_alloc&) {
    return Fail(ZX_ERR_NO_MEMORY, "out of memory");
  } catch (const std::exception& e) {
    return Fail(ZX_ERR_INTERNAL, e.what());
  } catch (...) {
    return Fail(ZX_ERR_INTERNAL, "unexpected failure");
  }
}

// Runs `op(session)` under the call lock on the session `handle` names, or says why it names
// none.
template <typename Op>
zx_status_t WithSession(zx_handle_t handle, Op op) {
  auto lock = CallLock();
  zx_sampler::Session* session = nullptr;
  if (zx_status_t status = Find(handle, &session); status != ZX_OK) return status;
  return op(session);
}

zx_status_t Attach(zx_handle_t handle, zx_handle_t thread, uint32_t options) {
  return Guarded([&] {
    return WithSession(handle, [&](zx_sampler::Session* session) {
      if (thread == ZX_HANDLE_INVALID || thread > 0x7fffffffu)
        return Fail(ZX_ERR_BAD_HANDLE,
                    "thread handle " + std::to_string(thread) + " is not a thread id");
      if (options & ~ZX_SAMPLER_ATTACH_DESCENDANTS)
        return Fail(ZX_ERR_INVALID_ARGS, "unknown attach options");
      return session->Attach(static_cast<pid_t>(thread), options & ZX_SAMPLER_ATTACH_DESCENDANTS,
                             &t_last_error);
    });
  });
}

}  // namespace

ZX_SAMPLER_EXPORT zx_status_t zx_sampler_create(zx_handle_t resource, uint64_t options,
                                                const zx_sampler_config_t* config,
                                                zx_handle_t* session_out) {
  (void)resource;
  return Guarded([&] {
    if (options != 0) return Fail(ZX_ERR_INVALID_ARGS, "options must be 0");
    if (!config || !session_out)
      return Fail(ZX_ERR_INVALID_ARGS, "config and session_out are required");
    if (config->iobuffer_discipline != ZX_IOB_DISCIPLINE_TYPE_NONE)
      return Fail(ZX_ERR_INVALID_ARGS, "iobuffer_discipline must be ZX_IOB_DISCIPLINE_TYPE_NONE");
    if (config->buffer_size == 0 || config->buffer_size > ZX_SAMPLER_MAX_BUFFER_SIZE)
      return Fail(ZX_ERR_INVALID_ARGS, "buffer_size must be 1 byte to 1 GiB");
    if (config->period < ZX_SAMPLER_MIN_PERIOD)
      return Fail(ZX_ERR_INVALID_ARGS, "period must be at least 10 us (10000 ns)");
    pmapi::SamplingSession::AtForkInChild(&ForgetSessionInChild);
    auto lock = CallLock();
    if (g_session) return Fail(ZX_ERR_ALREADY_EXISTS, "a sampler session already exists");
    std::unique_ptr<zx_sampler::Session> session;
    zx_status_t status = zx_sampler::Session::Create(*config, &session, &t_last_error);
    if (status != ZX_OK) return status;
    *session_out = static_cast<zx_handle_t>(session->handle());
    if (session->handle() == g_parents_handle) g_parents_handle = -1;  // the number is reused
    g_session = std::move(session);
    return ZX_OK;
  });
}

ZX_SAMPLER_EXPORT zx_status_t zx_sampler_attach(zx_handle_t session, zx_handle_t thread) {
  return Attach(session, thread, 0);
}

ZX_SAMPLER_EXPORT zx_status_t zx_sampler_attach_etc(zx_handle_t session, zx_handle_t thread,
                                                    uint32_t options) {
  return Attach(session, thread, options);
}

ZX_SAMPLER_EXPORT zx_status_t zx_sampler_start(zx_handle_t handle) {
  return Guarded([&] {
    return WithSession(handle,
                       [&](zx_sampler::Session* session) { return session->Start(&t_last_error); });
  });
}

ZX_SAMPLER_EXPORT zx_status_t zx_sampler_stop(zx_handle_t handle) {
  return Guarded([&] {
    return WithSession(handle,
                       [&](zx_sampler::Session* session) { return session->Stop(&t_last_error); });
  });
}

ZX_SAMPLER_EXPORT zx_status_t zx_handle_close(zx_handle_t handle) {
  return Guarded([&] {
    auto lock = CallLock();
    zx_sampler::Session* session = nullptr;
    if (Find(handle, &session) != ZX_OK) {
      if (static_cast<int>(handle) == g_parents_handle) return ZX_ERR_BAD_HANDLE;
      return Fail(ZX_ERR_BAD_HANDLE, "handle " + std::to_string(handle) + " is not open here");
    }
    // The destructor stops, drains nothing more and frees everything; under the lock, so a
    // fork meanwhile sees the session whole or not at all.
    g_session.reset();
    return ZX_OK;
  });
}

ZX_SAMPLER_EXPORT zx_status_t zx_sampler_get_info(zx_handle_t handle, zx_sampler_info_t* info) {
  return Guarded([&] {
    if (!info) return Fail(ZX_ERR_INVALID_ARGS, "info is required");
    return WithSession(handle, [&](zx_sampler::Session* session) {
      session->Info(info);
      return ZX_OK;
    });
  });
}

ZX_SAMPLER_EXPORT zx_status_t zx_sampler_region_fd(zx_handle_t handle, uint32_t index, int* fd) {
  return Guarded([&] {
    if (!fd) return Fail(ZX_ERR_INVALID_ARGS, "fd_out is required");
    return WithSession(handle, [&](zx_sampler::Session* session) {
      return session->RegionFd(index, fd, &t_last_error);
    });
  });
}

ZX_SAMPLER_EXPORT zx_status_t zx_sampler_map_region(zx_handle_t handle, uint32_t index,
                                                    const void** data, size_t* size) {
  return Guarded([&] {
    if (!data || !size) return Fail(ZX_ERR_INVALID_ARGS, "data and size are required");
    return WithSession(handle, [&](zx_sampler::Session* session) {
      return session->MapRegion(index, data, size, &t_last_error);
    });
  });
}

ZX_SAMPLER_EXPORT zx_status_t zx_sampler_set_task_events(zx_handle_t handle,
                                                         zx_sampler_task_event_fn fn,
                                                         void* context) {
  return Guarded([&] {
    return WithSession(handle, [&](zx_sampler::Session* session) {
      session->SetTaskEvents(fn, context);
      return ZX_OK;
    });
  });
}

ZX_SAMPLER_EXPORT zx_status_t zx_sampler_set_unwind(zx_handle_t handle, uint32_t method,
                                                    uint32_t stack_bytes) {
  return Guarded([&] {
    return WithSession(handle, [&](zx_sampler::Session* session) {
      return session->SetUnwind(method, stack_bytes, &t_last_error);
    });
  });
}

ZX_SAMPLER_EXPORT zx_status_t zx_sampler_set_event(zx_handle_t handle, uint32_t type,
                                                   uint64_t config) {
  return Guarded([&] {
    auto lock = CallLock();
    zx_sampler::Session* session = nullptr;
    if (zx_status_t status = Find(handle, &session); status != ZX_OK) return status;
    session->SetEvent(type, config);
    return ZX_OK;
  });
}

ZX_SAMPLER_EXPORT zx_ticks_t zx_ticks_per_second(void) { return 1000000000; }

ZX_SAMPLER_EXPORT zx_ticks_t zx_ticks_get(void) {
  return static_cast<zx_ticks_t>(pmapi::MonotonicNanos());
}

ZX_SAMPLER_EXPORT const char* zx_sampler_last_error(void) { return t_last_error.c_str(); }

ZX_SAMPLER_EXPORT const char* zx_sampler_status_name(zx_status_t status) {
  return fuchsia_common::ZxStatusNameOf(status);
}
