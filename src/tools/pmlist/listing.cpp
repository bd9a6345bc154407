// SPDX-License-Identifier: MIT
#include "listing.h"

#include <ctype.h>
#include <pmapi_catalog.h>
#include <stdio.h>

#include <algorithm>
#include <map>
#include <set>

#include "catalog/catalog.h"
#include "catalog/group_catalog.h"
#include "catalog/tables.h"

namespace pmlist {
namespace {

using pmapi::Catalog;
using pmapi::CatalogEvent;
using pmapi::EventSource;
using pmapi::Hex;

std::string StatusName(pm_status_t status) {
  if (status.b.verified) return "verified";
  if (status.b.caveat) return "caveat";
  return "unverified";
}

// The --source bits an event belongs to, and the name shown for it.
unsigned SourceBits(const CatalogEvent &event, std::string *name) {
  switch (event.source) {
    case EventSource::kTable:
      *name = "table";
      // A table event over a kernel software event is both.
      return kSourceTable |
             (event.encoding.compare(0, 20, "perf::PERF_COUNT_SW_") == 0 ? unsigned{kSourceSoftware}
                                                                         : 0u);
    case EventSource::kPfm:
      *name = "pmu";
      return kSourcePmu;
    case EventSource::kSoftware:
      *name = "software";
      return kSourceSoftware;
    case EventSource::kSysfsPmu:
      *name = "sysfs";
      return kSourceSysfs;
    case EventSource::kTracepoint:
      *name = "tracepoint";
      return kSourceTracepoint;
  }
  return 0;
}

std::string Encoding(const CatalogEvent &event) {
  perf_event_attr attr{};
  pmapi::Status status = Catalog::Get().Encode(event, &attr);
  std::string from = event.encoding.empty() ? event.short_name : event.encoding;
  if (!status.ok()) return from + " -> cannot encode: " + status.detail();
  std::string text = from + " -> type=" + std::to_string(attr.type) + " config=" + Hex(attr.config);
  if (attr.config1) text += " config1=" + Hex(attr.config1);
  if (attr.config2) text += " config2=" + Hex(attr.config2);
  return text;
}

}  // namespace

int StatusRank(const std::string &status) {
  if (status == "verified") return 0;
  if (status == "caveat") return 1;
  return 2;
}

std::string CounterList(unsigned counters) {
  std::string text;
  for (int c = 0; c < 32;) {
    if (!(counters >> c & 1)) {
      ++c;
      continue;
    }
    int last = c;
    while (last + 1 < 32 && (counters >> (last + 1) & 1)) ++last;
    if (!text.empty()) text += ',';
    text += std::to_string(c);
    if (last > c) text += "-" + std::to_string(last);
    c = last + 1;
  }
  return text;
}

std::vector<EventRow> ListEvents(const Options &options, const pm_info2_t &info) {
  // The public lists say which counters take each event; they list every event once per
  // counter, so gather by id.
  std::map<int, EventRow> rows;
  std::set<int> rejected;
  const char *query = options.pattern.c_str();
  for (int counter = 0; counter < info.maxpmcs && counter < MAX_COUNTERS; ++counter) {
    for (int i = 0; i < info.maxevents[counter]; ++i) {
      const pm_events2_t &event = info.list_events[counter][i];
      auto found = rows.find(event.event_id);
      if (found != rows.end()) {
        found->second.counters |= 1u << counter;
        continue;
      }
      if (rejected.count(event.event_id)) continue;
      const CatalogEvent *entry = Catalog::Get().FindId(event.event_id);
      std::string source = "table";
      const unsigned bits = entry ? SourceBits(*entry, &source) : kSourceTable;
      if (!(bits & options.sources) ||
          !pm_catalog_query_matches(query, event.short_name, event.long_name, event.description)) {
        rejected.insert(event.event_id);
        continue;
      }
      EventRow row;
      row.id = event.event_id;
      row.name = event.short_name;
      row.long_name = event.long_name;
      row.description = event.description;
      row.status = StatusName(event.status);
      row.counters = 1u << counter;
      row.source = source;
      if (options.verbose && entry) row.encoding = Encoding(*entry);
      rows.emplace(row.id, std::move(row));
    }
  }
  std::vector<EventRow> out;
  out.reserve(rows.size());
  for (auto &entry : rows) out.push_back(std::move(entry.second));
  // What can be counted here first (the ids stay in order within each status): on a machine
  // without a hardware PMU the hundreds of unverified table events would otherwise bury the
  // countable ones.
  std::stable_sort(out.begin(), out.end(), [](const EventRow &a, const EventRow &b) {
    return StatusRank(a.status) < StatusRank(b.status);
  });
  return out;
}

std::vector<GroupRow> ListGroups(const Options &options, const pm_info2_t &info,
                                 const pm_groups_info_t &groups) {
  std::map<int, std::string> names;  // event id -> short name, from the public lists
  for (int i = 0; i < info.maxevents[0]; ++i) {
    names[info.list_events[0][i].event_id] = info.list_events[0][i].short_name;
  }
  const pmapi::GroupCatalog &catalog = pmapi::GroupCatalog::Get();
  std::vector<GroupRow> out;
  std::set<int> listed;
  for (int g = 0; g < groups.maxgroups; ++g) {
    const pm_groups_t &group = groups.event_groups[g];
    const pmapi::ResolvedGroup *resolved = catalog.FindId(group.group_id);
    if (!resolved) continue;  // a gap below a pinned id: no group (docs/catalog.md)
    listed.insert(group.group_id);
    GroupRow row;
    row.id = group.group_id;
    row.name = group.short_name;
    row.long_name = group.long_name;
    row.description = group.description;
    // Counters after the members name a filler event (docs/catalog.md, "Groups"): not shown.
    const size_t members = resolved->members.size();
    for (size_t c = 0; c < members && group.events[c] != COUNT_NOTHING; ++c) {
      auto name = names.find(group.events[c]);
      row.members.push_back(name != names.end() ? name->second : std::to_string(group.events[c]));
    }
    row.status = pmapi::StatusWord(resolved->status);
    for (const pmapi::GroupMetric &metric : resolved->record.metrics) {
      row.metrics.emplace_back(metric.name, metric.formula);
    }
    out.push_back(std::move(row));
  }
  // Groups no filter lists because a member does not exist here (another processor's event):
  // shown when unverified ones are asked for, so that nobody wonders where they went.
  if (options.status_filter & PM_UNVERIFIED) {
    for (const pmapi::ResolvedGroup &group : catalog.groups()) {
      if (listed.count(group.record.id) || group.missing_member.empty()) continue;
      GroupRow row;
      row.id = group.record.id;
      row.name = group.record.short_name;
      row.long_name = group.record.long_name;
      row.description = group.record.description;
      row.status = "unavailable";
      row.members = group.record.members;
      row.missing = group.missing_member;
      for (const pmapi::GroupMetric &metric : group.record.metrics) {
        row.metrics.emplace_back(metric.name, metric.formula);
      }
      out.push_back(std::move(row));
    }
  }
  out.erase(std::remove_if(out.begin(), out.end(),
                           [&](const GroupRow &row) {
                             std::string members;
                             for (const std::string &m : row.members) members += m + " ";
                             return !pm_catalog_query_matches(
                                 options.pattern.c_str(), row.name.c_str(),
                                 (row.long_name + " " + members).c_str(), row.description.c_str());
                           }),
            out.end());
  std::sort(out.begin(), out.end(),
            [](const GroupRow &a, const GroupRow &b) { return a.id < b.id; });
  return out;
}

}  // namespace pmlist
