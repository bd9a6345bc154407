/* SPDX-License-Identifier: MIT */
// What pmlist shows, gathered from pm_initialize's lists (ids, names, status, descriptions,
// the counters each event may go on, groups and their members) and, for what the public
// structures do not carry (an event's source and encoding, a group's metrics), from the
// library's catalog.
#pragma once

#include <pmapi.h>

#include <string>
#include <utility>
#include <vector>

#include "options.h"

namespace pmlist {

struct EventRow {
  int id = 0;
  std::string name, long_name, description;
  std::string status;     // "verified", "caveat", "unverified"
  unsigned counters = 0;  // bit c: listed for counter c
  std::string source;     // "table", "pmu", "software", "sysfs", "tracepoint"
  std::string encoding;   // -v: "perf::PERF_COUNT_HW_CPU_CYCLES -> type=0 config=0x0"
};

struct GroupRow {
  int id = 0;
  std::string name, long_name, description;
  std::string status;  // as for events, or "unavailable" when a member is missing here
  std::vector<std::string> members;
  std::vector<std::pair<std::string, std::string>> metrics;  // name, formula
  std::string missing;  // the member this machine lacks, for unavailable groups
};

// The events that pass the options' status filter, sources and search words: the countable
// ones first (StatusRank), by id within each status.
std::vector<EventRow> ListEvents(const Options &options, const pm_info2_t &info);
std::vector<GroupRow> ListGroups(const Options &options, const pm_info2_t &info,
                                 const pm_groups_info_t &groups);

// 0 verified, 1 caveat, 2 unverified (or anything else): the listing's order.
int StatusRank(const std::string &status);

// "0-7", "0,2", "" for none.
std::string CounterList(unsigned counters);

}  // namespace pmlist
