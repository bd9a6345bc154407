// SPDX-License-Identifier: MIT
#include "event_choice.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/small_file.h"
#include "catalog/catalog.h"
#include "catalog/group_catalog.h"
#include "group_suggestion.h"
#include "text_format.h"

namespace aix {
namespace {

constexpr const char *kEventsFile = "libHPM_events";
constexpr size_t kLargestEventsFile = 64 * 1024;  // a few names need far less

std::vector<std::string> Split(const std::string &text, const char *separators) {
  std::vector<std::string> items;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t end = text.find_first_of(separators, start);
    const std::string item = text.substr(start, end == std::string::npos ? end : end - start);
    if (!item.empty()) items.push_back(item);
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return items;
}

bool IsNumber(const std::string &text) {
  return !text.empty() && text.size() < 9 &&
         text.find_first_not_of("0123456789") == std::string::npos;
}

const char *Env(const char *name) {
  const char *value = getenv(name);
  return value && *value ? value : nullptr;
}

using tools::GroupSuggestion;

// -s 0, every set: the groups the kernel counts here (a VM without a PMU counts none of the
// hardware ones, and one uncountable set would stop the multiplexed program).
std::string KeepCountable(std::vector<std::string> *names) {
  std::vector<std::string> kept;
  for (const std::string &name : *names) {
    const pmapi::ResolvedGroup *group = pmapi::GroupCatalog::Get().FindName(name);
    if (group && group->status != pmapi::EventStatus::kUnverified) kept.push_back(name);
  }
  if (kept.empty()) return "-s 0: no group is countable here (pmlist -g -1 shows their status)";
  *names = kept;
  return "";
}

// A request (from a file or a variable) is a list of groups if its first word is a group,
// else a list of events.
void Classify(const std::string &request, const pm_groups_info_t &groups, const char *source,
              EventChoice *choice, std::string *error) {
  choice->source = source;
  const std::vector<std::string> words = Split(request, ", \t\n");
  if (words.empty()) {
    *error = "names no group or event";
    return;
  }
  std::vector<std::string> names;
  const std::string why = ResolveGroups(request, true, groups, &names);
  if (why.empty()) {
    choice->groups = names;
    if (words.size() == 1 && words[0] == "0") *error = KeepCountable(&choice->groups);
  } else if (IsNumber(words[0])) {
    *error = why;  // a set number this machine has no group for
  } else if (!pmapi::Catalog::Get().FindName(words[0]) &&
             !GroupSuggestion(words[0], groups).empty()) {
    *error = why;  // no event, and close to a group's name: a mistyped group
  } else {
    // Event names: pmcount's selection (pm_select_events) judges them.
    std::string events;
    for (const std::string &word : words) events += (events.empty() ? "" : ",") + word;
    choice->events = events;
  }
}

}  // namespace

std::string ResolveGroups(const std::string &list, bool zero_is_all, const pm_groups_info_t &groups,
                          std::vector<std::string> *names) {
  std::vector<std::string> out;
  const std::vector<std::string> items = Split(list, ", \t\n");
  if (items.empty()) return "no group named";
  if (zero_is_all && items.size() == 1 && items[0] == "0") {
    for (int g = 0; g < groups.maxgroups; ++g) out.push_back(groups.event_groups[g].short_name);
    *names = out;
    return "";
  }
  for (const std::string &item : items) {
    const pm_groups_t *found = nullptr;
    for (int g = 0; g < groups.maxgroups && !found; ++g) {
      const pm_groups_t &group = groups.event_groups[g];
      if (IsNumber(item) ? group.group_id == atoi(item.c_str()) : item == group.short_name) {
        found = &group;
      }
    }
    if (!found) {
      if (IsNumber(item))
        return "no group has the number " + item + " (pmlist -g -1 lists the groups)";
      return "unknown group '" + item + "'" + GroupSuggestion(item, groups) +
             " (pmlist -g -1 lists the groups)";
    }
    out.push_back(found->short_name);
  }
  *names = out;
  return "";
}

bool ReadLibHpmEvents(std::string *text, std::string *why) {
  std::string contents, reason;
  switch (pmapi::ReadSmallFile(AT_FDCWD, kEventsFile, kLargestEventsFile, "a libHPM_events file",
                               &contents, &reason)) {
    case pmapi::SmallFile::kAbsent:
      return false;
    case pmapi::SmallFile::kRefused:
      *why = std::string(kEventsFile) + " " + reason;
      return true;
    case pmapi::SmallFile::kRead:
      break;
  }
  std::string words;
  for (const std::string &line : Split(contents, "\n")) {
    const std::string body = line.substr(0, line.find('#'));
    for (const std::string &word : Split(body, " \t\r,")) {
      // AIX's older form puts a counter number before each event name: keep the names.
      if (IsNumber(word)) continue;
      words += (words.empty() ? "" : ",") + word;
    }
  }
  if (words.empty()) {
    *why = std::string(kEventsFile) + " names no group or event";
    return true;
  }
  *text = words;
  return true;
}

std::string ChooseEvents(const HpmOptions &options, const pm_groups_info_t &groups,
                         EventChoice *choice) {
  EventChoice out;
  std::string error;
  if (!options.metrics.empty()) out.metrics = Split(options.metrics, ",");
  if (!options.groups.empty()) {
    error = ResolveGroups(options.groups, false, groups, &out.groups);
    out.source = "-g";
  } else if (!options.sets.empty()) {
    // Linux has no event sets apart from the groups: a set number is a group number.
    error = ResolveGroups(options.sets, true, groups, &out.groups);
    out.source = "-s";
    if (error.empty() && options.sets == "0") error = KeepCountable(&out.groups);
  } else if (!options.events.empty()) {
    out.events = options.events;
    out.source = "-e";
  } else if (!options.metric_groups.empty()) {
    // A metric group is the event group that defines the metrics: count it.
    error = ResolveGroups(options.metric_groups, false, groups, &out.groups);
    out.source = "-m";
  } else {
    std::string text, why;
    if (ReadLibHpmEvents(&text, &why)) {
      if (!why.empty()) return why;
      Classify(text, groups, kEventsFile, &out, &error);
    } else if (const char *set = Env("HPM_EVENT_SET")) {
      Classify(set, groups, "HPM_EVENT_SET", &out, &error);
    } else if (const char *group = Env("HPM_EVENT_GROUP")) {
      error = ResolveGroups(group, false, groups, &out.groups);
      out.source = "HPM_EVENT_GROUP";
    } else if (const char *pmd = Env("HPM_PMD_GROUP")) {
      error = ResolveGroups(pmd, false, groups, &out.groups);
      out.source = "HPM_PMD_GROUP";
    } else {
      out.source = "default";
    }
    if (!error.empty()) return out.source + ": " + error;
  }
  if (!error.empty()) return error;
  *choice = out;
  return "";
}

}  // namespace aix
