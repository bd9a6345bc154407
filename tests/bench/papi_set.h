/* SPDX-License-Identifier: MIT */
// PAPI's side of the comparison: one event set holding the named events,
// built the way a PAPI user would (library_init once, add by name).
#pragma once

#include <papi.h>

#include <string>
#include <vector>

struct PapiSet {
  int set = PAPI_NULL;
  bool ok = false;
  std::string why;  // when !ok: PAPI's own reason (component status or error)
  // For SkipWithError: the reason, or PAPI_start's when set-up went well.
  const char *Why() const { return why.empty() ? "PAPI_start failed" : why.c_str(); }
  explicit PapiSet(const std::vector<std::string> &names);
  ~PapiSet();
  PapiSet(const PapiSet &) = delete;
  PapiSet &operator=(const PapiSet &) = delete;
};
