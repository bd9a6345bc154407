/* SPDX-License-Identifier: MIT */
// An -e list split into its events as the library splits it (pm_parse_event_list), for the
// tools that hold more events than one program: pmcount expands patterns and splits long lists
// into sets.
#pragma once

#include <pmapi_select.h>

#include <string>
#include <vector>

namespace tools {

// Returns "" or the library's sentence naming the malformed event.
std::string SplitEventList(const std::string &list, std::vector<pm_event_spec_t> *specs);

// The modifiers written after the event's name (":u", or perf's "/u" letters as ":u"), to give
// every event a pattern becomes.
std::string ModifiersOf(const pm_event_spec_t &spec);

}  // namespace tools
