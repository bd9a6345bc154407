// SPDX-License-Identifier: MIT
#include "auto_multiplex.h"

#include <pmapi.h>

#include <vector>

#include "event_list.h"

namespace pmcount {

std::string SplitIntoSets(Options *options) {
  if (options->multiplex_ms > 0 || options->event_lists.empty()) return "";
  std::vector<pm_event_spec_t> specs;
  for (const std::string &list : options->event_lists) {
    std::vector<pm_event_spec_t> some;
    // A list that does not parse is left to the selection, whose message names the event.
    if (!tools::SplitEventList(list, &some).empty()) return "";
    specs.insert(specs.end(), some.begin(), some.end());
  }
  if (specs.size() <= MAX_COUNTERS) return "";
  const size_t sets = (specs.size() + MAX_COUNTERS - 1) / MAX_COUNTERS;
  if (sets > static_cast<size_t>(kMaxMultiplexSets)) {
    return std::to_string(specs.size()) + " events given; at most " +
           std::to_string(kMaxMultiplexSets * MAX_COUNTERS) + " can take turns (" +
           std::to_string(kMaxMultiplexSets) + " sets of " + std::to_string(MAX_COUNTERS) + ")";
  }
  if (options->repeat > 1) {
    return std::to_string(specs.size()) + " events are more than one program's " +
           std::to_string(MAX_COUNTERS) +
           " counters, so they would take turns, and a multiplexed estimate is printed for one "
           "run: drop -r, or give at most " +
           std::to_string(MAX_COUNTERS) + " events";
  }
  // Even sets (9 events: 5 and 4), so that each gets a fair share of the counters' time.
  const size_t per_set = (specs.size() + sets - 1) / sets;
  options->sets.clear();
  for (size_t first = 0; first < specs.size(); first += per_set) {
    std::string list;
    for (size_t e = first; e < specs.size() && e < first + per_set; ++e) {
      list += (list.empty() ? "" : ",") + std::string(specs[e].text);
    }
    options->sets.push_back(SetArgument{false, list});
  }
  options->multiplex_ms = kAutoSliceMs;
  options->auto_multiplex = true;
  return "";
}

}  // namespace pmcount
