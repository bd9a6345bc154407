// Parses one groups/*.grp text into group records (format: groups/README.md). Knows nothing of
// the event catalog: members are names, checked against the catalog when groups are listed.
#pragma once

#include <string>
#include <vector>

#include "base/status.h"
#include "catalog/group_formula.h"

namespace pmapi {

struct GroupMetric {
  std::string name;     // "IPC"
  std::string formula;  // "PM_INST_CMPL / PM_CYC", as written
  Formula compiled;
};

constexpr int kUnpinned = -1;  // GroupRecord::client_id of a group without a client-id line

struct GroupRecord {
  int id = 0;
  std::string short_name;  // "pm_basic"
  std::string long_name;
  std::string description;
  std::vector<std::string> members;  // catalog short names, counter 0 first; 1..MAX_COUNTERS
  std::vector<GroupMetric> metrics;
  std::string origin;  // "groups/generic.grp:12", the header line
  // The client id a "client-id N" line pins (pm_groups_t.group_id, what is_group programs
  // take), or kUnpinned: then the group gets the next dense id in table-id order.
  int client_id = kUnpinned;
  std::string client_id_origin;  // "site.grp:14", the client-id line; not in the catalog cache
};

constexpr int kFirstGroupId = 1;
constexpr int kLastGroupId = 99999;
// Pinned client ids are 0..kLastClientGroupId: AIX clients index event_groups[group_id], so the
// list grows to the largest pinned id (ids nobody pinned are gap entries, docs/catalog.md).
constexpr int kLastClientGroupId = 9999;

// Appends the groups of `text` to `records`. On the first bad line returns Pmapi_BadCatalog
// with "<label>:<line>: <what is wrong>" and appends nothing. Duplicate ids or short names
// inside this text are errors too; across files they are the loader's business.
Status ParseGroupTable(const std::string &label, const std::string &text,
                       std::vector<GroupRecord> *records);

}  // namespace pmapi
