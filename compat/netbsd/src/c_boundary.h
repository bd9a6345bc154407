/* SPDX-License-Identifier: MIT */
// libpmc's C boundary: a body that returns 0 or an errno becomes NetBSD's
// result, 0, or -1 with errno set; running out of memory becomes ENOMEM, and
// no exception reaches the C caller.
#pragma once

#include <errno.h>

#include <new>

namespace pmc_netbsd {

template <typename Body>
int ErrnoResult(Body body) noexcept {
  int err;
  try {
    err = body();
  } catch (const std::bad_alloc &) {
    err = ENOMEM;
  }
  if (err) {
    errno = err;
    return -1;
  }
  return 0;
}

}  // namespace pmc_netbsd
