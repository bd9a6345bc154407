// PAPI's side of the comparison: one event set holding the named events,
// built the way a PAPI user would (library_init once, add by name).
#pragma once

#include <papi.h>

#include <string>
#include <vector>

struct PapiSet {
  int set = PAPI_NULL;
  bool ok = false;
  explicit PapiSet(const std::vector<std::string> &names);
  ~PapiSet();
  PapiSet(const PapiSet &) = delete;
  PapiSet &operator=(const PapiSet &) = delete;
};
