#include "papi_set.h"

PapiSet::PapiSet(const std::vector<std::string> &names) {
  if (PAPI_is_initialized() == PAPI_NOT_INITED &&
      PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT) {
    return;
  }
  if (PAPI_create_eventset(&set) != PAPI_OK) return;
  for (const std::string &name : names) {
    if (PAPI_add_named_event(set, name.c_str()) != PAPI_OK) return;
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
