// SPDX-License-Identifier: MIT
#include "papi_set.h"

#include "../validation/papi_status.h"

PapiSet::PapiSet(const std::vector<std::string> &names) {
  // Where PAPI's perf_event component disabled itself every add fails with
  // "Event does not exist"; the benchmark then says why its column is empty.
  why = PapiCannotCountReason();
  if (!why.empty()) return;
  int rc = PAPI_create_eventset(&set);
  if (rc != PAPI_OK) {
    why = std::string("PAPI_create_eventset: ") + PAPI_strerror(rc);
    return;
  }
  for (const std::string &name : names) {
    rc = PAPI_add_named_event(set, name.c_str());
    if (rc != PAPI_OK) {
      why = "PAPI_add_named_event(" + name + "): " + PAPI_strerror(rc);
      return;
    }
  }
  ok = true;
}
PapiSet::~PapiSet() {
  // Stopping a set that is not running fails harmlessly; the values are
  // thrown away, so the buffer only has to be big enough.
  long long values[16];
  PAPI_stop(set, values);
  PAPI_cleanup_eventset(set);
  PAPI_destroy_eventset(&set);
}
