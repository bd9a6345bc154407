// SPDX-License-Identifier: MIT
#include "event_list.h"

#include <string.h>

#include <algorithm>

namespace tools {

std::string SplitEventList(const std::string &list, std::vector<pm_event_spec_t> *specs) {
  char why[PM_SELECT_TEXT_MAX] = "";
  int count = 0;
  specs->clear();
  if (pm_parse_event_list(list.c_str(), nullptr, 0, &count, why) != 0) return why;
  specs->resize(static_cast<size_t>(count));
  if (count > 0 && pm_parse_event_list(list.c_str(), specs->data(), count, &count, why) != 0) {
    specs->clear();
    return why;
  }
  return "";
}

std::string ModifiersOf(const pm_event_spec_t &spec) {
  const std::string text = spec.text;
  std::string suffix = text.substr(std::min(strlen(spec.name), text.size()));
  if (!suffix.empty() && suffix[0] != ':') suffix = ":" + suffix;
  return suffix;
}

}  // namespace tools
