/* SPDX-License-Identifier: MIT */
// The C boundary: an entry point's body runs inside Guarded, so that an exception (running out
// of memory, chiefly) becomes the entry point's return code and never unwinds into a C caller.
#pragma once

#include <exception>
#include <new>

#include "api/export.h"
#include "base/last_error.h"

namespace pmapi {

template <typename Body>
int Guarded(Body body) noexcept {
  try {
    return body();
  } catch (const std::bad_alloc &) {
    return Report(Pmapi_Malloc_Err, "out of memory: the library could not allocate");
  } catch (const std::exception &e) {
    return Report(Status(Pmapi_KernelError, {"internal error: ", e.what()}));
  } catch (...) {
    return Report(Pmapi_KernelError, "internal error: an unknown exception");
  }
}

}  // namespace pmapi
