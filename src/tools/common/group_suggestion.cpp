// SPDX-License-Identifier: MIT
#include "group_suggestion.h"

#include <pmapi_catalog.h>
#include <string.h>

#include <vector>

#include "text_format.h"

namespace tools {
namespace {

constexpr size_t kMaxOffered = 3;

bool Listed(const char *name, const pm_groups_info_t &groups) {
  for (int g = 0; g < groups.maxgroups; ++g) {
    if (strcmp(groups.event_groups[g].short_name, name) == 0) return true;
  }
  return false;
}

}  // namespace

std::string GroupSuggestion(const std::string &name, const pm_groups_info_t &groups) {
  // Names only: a word of a group's description is no group to count.
  pm_catalog_suggestions_t close{};
  if (name.empty() ||
      pm_catalog_suggest(name.c_str(), PM_CATALOG_GROUPS | PM_CATALOG_NAMES_ONLY, &close) != 0) {
    return "";
  }
  std::vector<std::string> offered;
  for (int i = 0; i < close.nsuggestions && offered.size() < kMaxOffered; ++i) {
    if (Listed(close.suggestions[i], groups)) offered.push_back(close.suggestions[i]);
  }
  return offered.empty() ? "" : "; did you mean " + OrList(offered) + "?";
}

}  // namespace tools
