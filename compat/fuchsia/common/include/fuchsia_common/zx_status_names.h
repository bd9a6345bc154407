/* SPDX-License-Identifier: MIT */
// The one table of Fuchsia's status names, by value, for both layers' name calls
// (perfmon_status_name, zx_sampler_status_name). Header-only and keyed by number: each layer
// defines the ZX_ERR_* macros it returns in its own public header, and a name is Fuchsia's
// whichever layer asks.
#pragma once

#include <stdint.h>

namespace fuchsia_common {

struct ZxStatusName {
  int32_t status;
  const char *name;
};

// Every status either layer returns, with Fuchsia's values.
inline constexpr ZxStatusName kZxStatusNames[] = {
    {0, "ZX_OK"},
    {-1, "ZX_ERR_INTERNAL"},
    {-2, "ZX_ERR_NOT_SUPPORTED"},
    {-3, "ZX_ERR_NO_RESOURCES"},
    {-4, "ZX_ERR_NO_MEMORY"},
    {-10, "ZX_ERR_INVALID_ARGS"},
    {-11, "ZX_ERR_BAD_HANDLE"},
    {-14, "ZX_ERR_OUT_OF_RANGE"},
    {-15, "ZX_ERR_BUFFER_TOO_SMALL"},
    {-20, "ZX_ERR_BAD_STATE"},
    {-21, "ZX_ERR_TIMED_OUT"},
    {-25, "ZX_ERR_NOT_FOUND"},
    {-26, "ZX_ERR_ALREADY_EXISTS"},
    {-27, "ZX_ERR_ALREADY_BOUND"},
    {-30, "ZX_ERR_ACCESS_DENIED"},
    {-40, "ZX_ERR_IO"},
};

// "ZX_ERR_BAD_STATE" for -20; "ZX_ERR_UNKNOWN" for a value the table does not hold.
inline const char *ZxStatusNameOf(int32_t status) {
  for (const ZxStatusName &named : kZxStatusNames) {
    if (named.status == status) return named.name;
  }
  return "ZX_ERR_UNKNOWN";
}

}  // namespace fuchsia_common
