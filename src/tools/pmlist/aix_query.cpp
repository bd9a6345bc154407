// SPDX-License-Identifier: MIT
#include "aix_query.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <map>
#include <set>
#include <utility>
#include <vector>

#include "catalog/group_catalog.h"
#include "csv.h"
#include "group_suggestion.h"
#include "listing.h"
#include "markup.h"
#include "text_format.h"

namespace pmlist {
namespace {

// One answer as fields, for -o c and -o x; the text layout is written per query.
using Record = std::vector<std::pair<std::string, std::string>>;

// -o c: the kit's CSV field (src/report/csv.h), quoted only when it must be.
using tools::CsvField;

// -o x: the kit's markup escaping (src/tools/common/markup.h), which the pictures use too.
using tools::EscapeMarkup;

std::string Render(char format, const char *element, const std::vector<Record> &records) {
  std::string out;
  if (format == 'c') {
    if (records.empty()) return out;
    for (size_t f = 0; f < records[0].size(); ++f) out += (f ? "," : "") + records[0][f].first;
    out += "\n";
    for (const Record &record : records) {
      for (size_t f = 0; f < record.size(); ++f) out += (f ? "," : "") + CsvField(record[f].second);
      out += "\n";
    }
    return out;
  }
  out = "<?xml version=\"1.0\"?>\n<pmlist>\n";
  for (const Record &record : records) {
    out += std::string("  <") + element;
    for (const auto &field : record)
      out += " " + field.first + "=\"" + EscapeMarkup(field.second) + "\"";
    out += "/>\n";
  }
  return out + "</pmlist>\n";
}

std::string StatusWord(pm_status_t status) {
  if (status.b.verified) return "verified";
  if (status.b.caveat) return "caveat";
  return "unverified";
}

// Tracepoints carry their short name as long name: shown once.
bool HasLongName(const pm_events2_t &event) {
  return event.long_name[0] && strcmp(event.long_name, event.short_name) != 0;
}

bool IsNumber(const std::string &text) {
  return !text.empty() && text.size() < 9 &&
         text.find_first_not_of("0123456789") == std::string::npos;
}

// -p: Linux lists this machine's processor only.
std::string CheckProcessor(const Options &options, const pm_info2_t &info) {
  if (options.processor.empty() || strcasecmp(options.processor.c_str(), info.proc_name) == 0) {
    return "";
  }
  return "-p " + options.processor + ": pmlist on Linux knows this machine's processor only (" +
         std::string(info.proc_name) + ")";
}

std::string Summary(const Options &options, const pm_info2_t &info, const pm_groups_info_t &groups,
                    std::string *text) {
  std::map<int, bool> ids;
  for (int c = 0; c < info.maxpmcs; ++c) {
    for (int i = 0; i < info.maxevents[c]; ++i) ids[info.list_events[c][i].event_id] = true;
  }
  if (options.format != 't') {
    *text = Render(options.format, "processor",
                   {{{"name", info.proc_name},
                     {"counters", std::to_string(info.maxpmcs)},
                     {"groups", std::to_string(groups.maxgroups)},
                     {"sets", std::to_string(groups.maxgroups)},
                     {"events", std::to_string(ids.size())},
                     {"hypervisor", "no"},
                     {"runlatch", "no"}}});
    return "";
  }
  char line[256];
  snprintf(line, sizeof line, "\n%s supports %d counters\n\n", info.proc_name, info.maxpmcs);
  *text = line;
  snprintf(line, sizeof line, "Number of groups            : %d\n", groups.maxgroups);
  *text += line;
  snprintf(line, sizeof line,
           "Number of sets              : %d (on Linux the sets are the groups)\n",
           groups.maxgroups);
  *text += line;
  snprintf(line, sizeof line, "Number of events            : %zu\n\n", ids.size());
  *text += line;
  *text += "Threshold multiplier        : none (no event is thresholdable on Linux)\n";
  *text += "Hypervisor counting mode is not supported (Linux counts no hypervisor mode apart)\n";
  *text += "Runlatch counting mode is not supported (Linux has no run latch)\n";
  return "";
}

// The short name of each event id, and its long name and description, from counter 0's list
// (every event a group holds is listed there).
struct Names {
  std::map<int, const pm_events2_t *> by_id;
  explicit Names(const pm_info2_t &info) {
    for (int c = 0; c < info.maxpmcs; ++c) {
      for (int i = 0; i < info.maxevents[c]; ++i) {
        by_id.emplace(info.list_events[c][i].event_id, &info.list_events[c][i]);
      }
    }
  }
  const pm_events2_t *Find(int id) const {
    auto found = by_id.find(id);
    return found == by_id.end() ? nullptr : found->second;
  }
};

std::string Groups(const Options &options, const pm_info2_t &info, const pm_groups_info_t &groups,
                   std::string *text) {
  const Names names(info);
  std::vector<const pm_groups_t *> chosen;
  for (int g = 0; g < groups.maxgroups; ++g) {
    const pm_groups_t &group = groups.event_groups[g];
    if (options.aix_arg == "-1" ||
        (IsNumber(options.aix_arg) ? group.group_id == atoi(options.aix_arg.c_str())
                                   : options.aix_arg == group.short_name)) {
      chosen.push_back(&group);
    }
  }
  if (chosen.empty()) {
    if (IsNumber(options.aix_arg)) {
      return "no group has the number " + options.aix_arg + " here (pmlist -g -1 lists them)";
    }
    return "no group is named " + options.aix_arg + " here" +
           tools::GroupSuggestion(options.aix_arg, groups) + " (pmlist -g -1 lists them)";
  }
  std::vector<Record> records;
  std::string out;
  if (options.aix == AixQuery::kSets) out += "On Linux the event sets are the groups.\n\n";
  for (const pm_groups_t *group : chosen) {
    const pmapi::ResolvedGroup *resolved = pmapi::GroupCatalog::Get().FindId(group->group_id);
    const size_t members = resolved ? resolved->members.size() : 0;
    std::string status = "unverified";
    if (resolved) {
      status = resolved->status == pmapi::EventStatus::kVerified ? "verified"
               : resolved->status == pmapi::EventStatus::kCaveat ? "caveat"
                                                                 : "unverified";
    }
    out += "Group #" + std::to_string(group->group_id) + ": " + group->short_name + "\n";
    out += "Group name: " + std::string(group->long_name) + "\n";
    if (options.detailed) out += "Group description: " + std::string(group->description) + "\n";
    out += "Group status: " + status + "\n";
    out += "Group members:\n";
    std::string member_list;
    for (size_t c = 0; c < members && group->events[c] != COUNT_NOTHING; ++c) {
      const pm_events2_t *event = names.Find(group->events[c]);
      const std::string name = event ? event->short_name : std::to_string(group->events[c]);
      out += "  Counter " + std::to_string(c + 1) + ", event " + std::to_string(group->events[c]) +
             ": " + name;
      if (event && HasLongName(*event)) out += " (" + std::string(event->long_name) + ")";
      out += "\n";
      member_list += (member_list.empty() ? "" : " ") + name;
    }
    out += "\n";
    records.push_back({{"id", std::to_string(group->group_id)},
                       {"name", group->short_name},
                       {"long_name", group->long_name},
                       {"status", status},
                       {"members", member_list}});
  }
  *text = options.format == 't' ? out : Render(options.format, "group", records);
  return "";
}

std::string Counters(const Options &options, const pm_info2_t &info, std::string *text) {
  int only_counter = -1;  // 0-based
  std::string only_event;
  if (options.aix_arg != "-1") {
    const std::string counter = options.aix_arg.substr(0, options.aix_arg.find(','));
    if (!IsNumber(counter) || atoi(counter.c_str()) < 1 || atoi(counter.c_str()) > info.maxpmcs) {
      return "-c " + options.aix_arg + ": counters are numbered 1 to " +
             std::to_string(info.maxpmcs) + " here";
    }
    only_counter = atoi(counter.c_str()) - 1;
    if (options.aix_arg.find(',') != std::string::npos) {
      only_event = options.aix_arg.substr(options.aix_arg.find(',') + 1);
    }
  }
  std::string out;
  std::vector<Record> records;
  bool found = false;
  for (int c = 0; c < info.maxpmcs; ++c) {
    if (only_counter >= 0 && c != only_counter) continue;
    if (only_event.empty()) out += "Counter " + std::to_string(c + 1) + ":\n";
    for (int i = 0; i < info.maxevents[c]; ++i) {
      const pm_events2_t &event = info.list_events[c][i];
      if (!only_event.empty() && only_event != event.short_name &&
          only_event != std::to_string(event.event_id)) {
        continue;
      }
      found = true;
      out += "  Counter " + std::to_string(c + 1) + ", event " + std::to_string(event.event_id) +
             ": " + event.short_name;
      if (HasLongName(event)) out += " (" + std::string(event.long_name) + ")";
      out += " [" + StatusWord(event.status) + "]\n";
      if (options.detailed && event.description[0]) {
        out += "      " + std::string(event.description) + "\n";
      }
      records.push_back({{"counter", std::to_string(c + 1)},
                         {"id", std::to_string(event.event_id)},
                         {"name", event.short_name},
                         {"long_name", event.long_name},
                         {"status", StatusWord(event.status)},
                         {"description", event.description}});
    }
  }
  if (!only_event.empty() && !found) {
    return "no event " + only_event + " on counter " + std::to_string(only_counter + 1) +
           " (pmlist -c " + std::to_string(only_counter + 1) + " lists them)";
  }
  *text = options.format == 't' ? out : Render(options.format, "event", records);
  return "";
}

std::string Event(const Options &options, const pm_info2_t &info, std::string *text) {
  unsigned counters = 0;
  const pm_events2_t *found = nullptr;
  for (int c = 0; c < info.maxpmcs; ++c) {
    for (int i = 0; i < info.maxevents[c]; ++i) {
      if (options.aix_arg == info.list_events[c][i].short_name) {
        found = &info.list_events[c][i];
        counters |= 1u << c;
      }
    }
  }
  if (!found) return "no event is named " + options.aix_arg + " here (pmlist -c -1 lists them)";
  // AIX numbers counters from 1.
  std::string list;
  for (int c = 0; c < info.maxpmcs; ++c) {
    if (counters & (1u << c)) list += (list.empty() ? "" : ",") + std::to_string(c + 1);
  }
  if (options.format != 't') {
    *text = Render(options.format, "event",
                   {{{"id", std::to_string(found->event_id)},
                     {"name", found->short_name},
                     {"long_name", found->long_name},
                     {"status", StatusWord(found->status)},
                     {"counters", list},
                     {"description", found->description}}});
    return "";
  }
  std::string out = "Event " + std::to_string(found->event_id) + ": " + found->short_name + "\n";
  out += "  Long name   : " + std::string(found->long_name) + "\n";
  out += "  Status      : " + StatusWord(found->status) + "\n";
  out += "  Counters    : " + list + "\n";
  out += "  Description : " + std::string(found->description) + "\n";
  *text = out;
  return "";
}

std::string Metrics(const Options &options, const pm_groups_info_t &groups, std::string *text) {
  const bool by_group = options.aix == AixQuery::kMetricGroups;
  const bool all_metrics = !by_group && options.aix_arg == "-1";
  std::string out = by_group ? "" : "Derived metrics supported:\n";
  std::vector<Record> records;
  std::set<std::string> listed;
  // A metric's description: the first one a group gives for that name (a site's group may give
  // none), else its formula.
  auto DescriptionOf = [&groups](const std::string &metric_name, const std::string &formula) {
    for (int g = 0; g < groups.maxgroups; ++g) {
      const pmapi::ResolvedGroup *group =
          pmapi::GroupCatalog::Get().FindId(groups.event_groups[g].group_id);
      if (!group) continue;
      for (const pmapi::GroupMetric &metric : group->record.metrics) {
        if (metric.name == metric_name && !metric.description.empty()) return metric.description;
      }
    }
    return formula;
  };
  auto Padded = [](const std::string &metric_name) {
    return metric_name + std::string(metric_name.size() < 31 ? 31 - metric_name.size() : 1, ' ');
  };
  bool found = false;
  for (int g = 0; g < groups.maxgroups; ++g) {
    const pmapi::ResolvedGroup *group =
        pmapi::GroupCatalog::Get().FindId(groups.event_groups[g].group_id);
    if (!group || group->record.metrics.empty()) continue;
    const std::string &name = group->record.short_name;
    if (by_group && options.aix_arg != "-1" && options.aix_arg != name &&
        options.aix_arg != std::to_string(group->id)) {
      continue;
    }
    if (by_group) out += "Metric group: " + name + "\n";
    for (const pmapi::GroupMetric &metric : group->record.metrics) {
      if (!by_group && options.aix_arg != "-1" && options.aix_arg != metric.name) continue;
      found = true;
      if (all_metrics) {
        // AIX lists each metric once, with what it means; the groups that define it are -m's.
        if (!listed.insert(metric.name).second) continue;
        const std::string &meaning = metric.description.empty()
                                         ? DescriptionOf(metric.name, metric.formula)
                                         : metric.description;
        out += "        " + Padded(metric.name) + meaning + "\n";
        records.push_back({{"metric", metric.name},
                           {"description", meaning},
                           {"group", name},
                           {"formula", metric.formula}});
        continue;
      }
      out += "        " + Padded(metric.name) + metric.formula + "\n";
      records.push_back({{"metric", metric.name}, {"group", name}, {"formula", metric.formula}});
    }
  }
  if (!found) {
    return std::string(by_group ? "no metric group " : "no derived metric ") + options.aix_arg +
           " here (pmlist " + (by_group ? "-m" : "-D") + " -1 lists them)";
  }
  *text = options.format == 't' ? out : Render(options.format, "metric", records);
  return "";
}

}  // namespace

std::string AnswerAixQuery(const Options &options, const pm_info2_t &info,
                           const pm_groups_info_t &groups, std::string *text) {
  std::string error = CheckProcessor(options, info);
  if (!error.empty()) return error;
  switch (options.aix) {
    case AixQuery::kSummary:
      return Summary(options, info, groups, text);
    case AixQuery::kGroups:
    case AixQuery::kSets:
      return Groups(options, info, groups, text);
    case AixQuery::kCounters:
      return Counters(options, info, text);
    case AixQuery::kEvent:
      return Event(options, info, text);
    case AixQuery::kProcessors:
      *text = options.format == 't'
                  ? "Supported processors:\n  " + std::string(info.proc_name) +
                        " (this machine's: pmlist on Linux describes no other)\n"
                  : Render(options.format, "processor", {{{"name", info.proc_name}}});
      return "";
    case AixQuery::kDerived:
    case AixQuery::kMetricGroups:
      return Metrics(options, groups, text);
    case AixQuery::kVariables:
      if (options.aix_arg == "time" || options.aix_arg == "-1") {
        *text =
            "time : the elapsed seconds of the counting (the only variable of the formulas; "
            "the others are the group's event names)\n";
        return "";
      }
      return "no variable " + options.aix_arg +
             ": the formulas read their group's counts and time only";
    case AixQuery::kNone:
      break;
  }
  return "no AIX query given";
}

}  // namespace pmlist
