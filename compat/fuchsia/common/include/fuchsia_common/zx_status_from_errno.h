/* SPDX-License-Identifier: MIT */
// The one errno -> zx_status_t map of the Fuchsia layers (perfmon and the sampler), for what the
// kernel refused. Header-only: each layer ships Fuchsia's zx_status_t and ZX_ERR_* values in its
// own public header, which is included first. A call whose Fuchsia contract says otherwise
// (the sampler's attach of an exited thread is ZX_ERR_BAD_STATE) says so where it is made.
#pragma once

#include <errno.h>

namespace fuchsia_common {

inline zx_status_t ZxStatusFromErrno(int err) {
  switch (err) {
    case ENOMEM:
      return ZX_ERR_NO_MEMORY;
    case EMFILE:
    case ENFILE:
    case ENOSPC:
    case EBUSY:
    case EAGAIN:
      return ZX_ERR_NO_RESOURCES;
    case EACCES:
    case EPERM:
      return ZX_ERR_ACCESS_DENIED;
    case ESRCH:
      return ZX_ERR_NOT_FOUND;
    case ENOENT:
    case ENODEV:
    case EOPNOTSUPP:
      return ZX_ERR_NOT_SUPPORTED;
    case EINVAL:
    case E2BIG:
      return ZX_ERR_INVALID_ARGS;
    default:
      return ZX_ERR_INTERNAL;
  }
}

}  // namespace fuchsia_common
