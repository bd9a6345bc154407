// SPDX-License-Identifier: MIT
// libFuzzer target: the event-spec parser of pm_select_events (src/api/event_spec.h). The input
// is one spec. ParseEventList must return "" or a message, and every event it accepts must have
// a name, never count in no mode (":h" alone is the hypervisor's), and survive the
// catalog-spelling and libpfm4 splits.
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <string>
#include <vector>

#include "api/event_spec.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const std::string list(reinterpret_cast<const char *>(data), size);
  std::vector<pmapi::EventSpec> specs;
  if (!pmapi::ParseEventList(list, &specs).empty()) return 0;
  for (const pmapi::EventSpec &spec : specs) {
    if (spec.name.empty() || spec.text.empty()) abort();
    if (spec.has_mode && !spec.user && !spec.kernel && !spec.hypervisor) abort();
    if (spec.text.compare(0, spec.name.size(), spec.name) != 0) abort();  // name is a prefix
    (void)pmapi::CatalogSpelling(spec.name);
    std::string event;
    std::vector<std::string> attributes;
    if (pmapi::SplitPfmAttributes(spec.name, &event, &attributes)) {
      if (event.empty()) abort();
      for (const std::string &attribute : attributes) {
        if (attribute.empty()) abort();
      }
    }
  }
  return 0;
}
