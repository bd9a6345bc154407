// SPDX-License-Identifier: MIT
// perfmon_status_name: one table of the codes status.h lists.
#include "lib/perfmon/status.h"

namespace {

struct Named {
  zx_status_t status;
  const char *name;
};

constexpr Named kNames[] = {
    {ZX_OK, "ZX_OK"},
    {ZX_ERR_INTERNAL, "ZX_ERR_INTERNAL"},
    {ZX_ERR_NOT_SUPPORTED, "ZX_ERR_NOT_SUPPORTED"},
    {ZX_ERR_NO_RESOURCES, "ZX_ERR_NO_RESOURCES"},
    {ZX_ERR_NO_MEMORY, "ZX_ERR_NO_MEMORY"},
    {ZX_ERR_INVALID_ARGS, "ZX_ERR_INVALID_ARGS"},
    {ZX_ERR_BAD_HANDLE, "ZX_ERR_BAD_HANDLE"},
    {ZX_ERR_OUT_OF_RANGE, "ZX_ERR_OUT_OF_RANGE"},
    {ZX_ERR_BUFFER_TOO_SMALL, "ZX_ERR_BUFFER_TOO_SMALL"},
    {ZX_ERR_BAD_STATE, "ZX_ERR_BAD_STATE"},
    {ZX_ERR_TIMED_OUT, "ZX_ERR_TIMED_OUT"},
    {ZX_ERR_NOT_FOUND, "ZX_ERR_NOT_FOUND"},
    {ZX_ERR_ALREADY_BOUND, "ZX_ERR_ALREADY_BOUND"},
    {ZX_ERR_ACCESS_DENIED, "ZX_ERR_ACCESS_DENIED"},
    {ZX_ERR_IO, "ZX_ERR_IO"},
};

}  // namespace

extern "C" const char *perfmon_status_name(zx_status_t status) {
  for (const Named &named : kNames) {
    if (named.status == status) return named.name;
  }
  return "ZX_ERR_UNKNOWN";
}
