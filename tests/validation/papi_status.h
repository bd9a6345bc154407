/* SPDX-License-Identifier: MIT */
// Why PAPI cannot count on this machine, in PAPI's own words: its components
// report whether they initialised and, if not, the reason (for instance a
// processor newer than the libpfm4 inside PAPI disables perf_event). Empty
// when the component that counts perf events is enabled. Header-only, shared
// by the validation and the benchmarks. Call after PAPI_library_init.
#pragma once

#include <papi.h>
#include <string.h>

#include <string>

inline std::string PapiCannotCountReason() {
  if (PAPI_is_initialized() == PAPI_NOT_INITED) {
    int version = PAPI_library_init(PAPI_VER_CURRENT);
    if (version != PAPI_VER_CURRENT) {
      return std::string("PAPI_library_init failed: ") + PAPI_strerror(version);
    }
  }
  const int components = PAPI_num_components();
  for (int cid = 0; cid < components; ++cid) {
    const PAPI_component_info_t *info = PAPI_get_component_info(cid);
    if (!info || strcmp(info->name, "perf_event") != 0) continue;
    if (!info->disabled) return "";
    return std::string("PAPI's perf_event component is disabled: ") + info->disabled_reason;
  }
  return "PAPI has no perf_event component";
}
