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

struct GroupRecord {
  int id = 0;
  std::string short_name;  // "pm_basic"
  std::string long_name;
  std::string description;
  std::vector<std::string> members;  // catalog short names, counter 0 first; 1..MAX_COUNTERS
  std::vector<GroupMetric> metrics;
  std::string origin;  // "groups/generic.grp:12", the header line
};

constexpr int kFirstGroupId = 1;
constexpr int kLastGroupId = 99999;

// Appends the groups of `text` to `records`. On the first bad line returns Pmapi_BadCatalog
// with "<label>:<line>: <what is wrong>" and appends nothing. Duplicate ids or short names
// inside this text are errors too; across files they are the loader's business.
Status ParseGroupTable(const std::string &label, const std::string &text,
                       std::vector<GroupRecord> *records);

}  // namespace pmapi
