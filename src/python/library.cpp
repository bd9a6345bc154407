// SPDX-License-Identifier: MIT
#include "library.h"

#include "errors.h"

#include <mutex>
#include <unordered_map>

namespace pmapi_python {
namespace {

struct Listing {
  pm_info2_t info{};
  pm_groups_info_t groups{};
  std::unordered_map<int, const pm_events2_t *> by_id;
  // Group short names in lower case -> the group's own short name: every session looks its
  // spec up here.
  std::unordered_map<std::string, const char *> group_by_name;
  int rc = 0;
};

// ASCII only, as group names are: no locale to consult for each letter.
std::string Lower(const std::string &text) {
  std::string lower(text);
  for (char &c : lower)
    if (c >= 'A' && c <= 'Z') c = char(c - 'A' + 'a');
  return lower;
}

Listing &TheListing() {
  static Listing listing;
  return listing;
}

}  // namespace

void EnsureInitialized() {
  static std::once_flag once;
  std::call_once(once, [] {
    Listing &l = TheListing();
    l.rc = pm_initialize(PM_VERIFIED | PM_UNVERIFIED | PM_CAVEAT | PM_GET_GROUPS, &l.info,
                         &l.groups, PM_CURRENT);
    if (l.rc != 0) return;
    for (int pmc = 0; pmc < l.info.maxpmcs; ++pmc)
      for (int i = 0; i < l.info.maxevents[pmc]; ++i)
        l.by_id.emplace(l.info.list_events[pmc][i].event_id, &l.info.list_events[pmc][i]);
    // The first of two names that differ only by case wins, as a search in table order finds.
    for (int i = 0; i < l.groups.maxgroups; ++i)
      if (l.groups.event_groups[i].short_name)
        l.group_by_name.emplace(Lower(l.groups.event_groups[i].short_name),
                                l.groups.event_groups[i].short_name);
  });
  // A failed initialization is reported on every call, with its sentence each time.
  if (TheListing().rc != 0) {
    pm_info2_t info;
    pm_groups_info_t groups;
    Check(pm_initialize(PM_VERIFIED | PM_UNVERIFIED | PM_CAVEAT | PM_GET_GROUPS, &info, &groups,
                        PM_CURRENT),
          "pm_initialize");
  }
}

const pm_events2_t *EventById(int event_id) {
  const auto &by_id = TheListing().by_id;
  auto found = by_id.find(event_id);
  return found == by_id.end() ? nullptr : found->second;
}

const pm_groups_info_t &Groups() { return TheListing().groups; }

const char *GroupNamed(const std::string &name) {
  const auto &by_name = TheListing().group_by_name;
  auto found = by_name.find(Lower(name));
  return found == by_name.end() ? nullptr : found->second;
}

}  // namespace pmapi_python
