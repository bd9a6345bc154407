// SPDX-License-Identifier: MIT
// pm_parse_event_list (include/pmapi_select.h): an event list split and its modifiers read as
// pm_select_events reads them (api/event_spec.h), for a client that holds more events than one
// program.
#include "api/export.h"

#pragma GCC visibility push(default)
#include "pmapi_select.h"
#pragma GCC visibility pop

#include <string.h>

#include <string>
#include <vector>

#include "api/c_boundary.h"
#include "api/event_spec.h"
#include "api/fixed_text.h"

namespace pmapi {
namespace {

int Malformed(char *why, const std::string &sentence) {
  if (why) {
    const size_t n =
        sentence.size() < PM_SELECT_TEXT_MAX - 1 ? sentence.size() : PM_SELECT_TEXT_MAX - 1;
    memcpy(why, sentence.data(), n);
    why[n] = '\0';
  }
  return Report(Pmapi_InvalidEvent, sentence);
}

}  // namespace
}  // namespace pmapi

extern "C" int pm_parse_event_list(const char *list, pm_event_spec_t *specs, int max_specs,
                                   int *nspecs, char *why) {
  return pmapi::Guarded([&] {
    if (why) why[0] = '\0';
    if (!list) return pmapi::Report(Pmapi_InvalidArg, "the event list is NULL");
    if (!nspecs) return pmapi::Report(Pmapi_InvalidArg, "nspecs is NULL");
    if (max_specs < 0 || (max_specs > 0 && !specs)) {
      return pmapi::Report(Pmapi_InvalidArg, "specs must hold max_specs entries (>= 0)");
    }
    std::vector<pmapi::EventSpec> parsed;
    const std::string error = pmapi::ParseEventList(list, &parsed);
    if (!error.empty()) return pmapi::Malformed(why, error);
    for (const pmapi::EventSpec &one : parsed) {
      if (one.text.size() >= PM_SELECT_NAME_MAX) {
        return pmapi::Malformed(why, "event '" + one.text.substr(0, 64) + "...' is longer than " +
                                         std::to_string(PM_SELECT_NAME_MAX - 1) + " bytes");
      }
    }
    for (size_t i = 0; i < parsed.size() && i < static_cast<size_t>(max_specs); ++i) {
      pm_event_spec_t &spec = specs[i];
      memset(&spec, 0, sizeof spec);
      pmapi::CopyFixed(spec.text, parsed[i].text);
      pmapi::CopyFixed(spec.name, parsed[i].name);
      spec.has_mode = parsed[i].has_mode ? 1 : 0;
      spec.user = parsed[i].user ? 1 : 0;
      spec.kernel = parsed[i].kernel ? 1 : 0;
    }
    *nspecs = static_cast<int>(parsed.size());
    return 0;
  });
}
