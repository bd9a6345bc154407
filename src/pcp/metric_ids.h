// SPDX-License-Identifier: MIT
// The agent's metric ids: a pure function of what a metric counts (its scope, its kind, the
// event's catalog id and privilege levels, or a group's id and formula position), never of a
// configuration's order, so an archive's ids mean the same thing after the events change.
// No PCP or libpmapi header here: both sides of the agent and its tests include it.
#ifndef PMAPI_PCP_METRIC_IDS_H
#define PMAPI_PCP_METRIC_IDS_H

namespace pmapi_pcp {

// PCP's metric id below the domain: a 12-bit cluster and a 10-bit item.
struct MetricId {
  unsigned cluster;
  unsigned item;
};

enum class Scope : unsigned { kCpu = 0, kJob = 1, kNode = 2, kAgent = 3 };
// An event's count; the share of its enabled time it ran on a counter; a group's formula.
enum class Kind : unsigned { kCount = 0, kShare = 1, kDerived = 2 };

// Privilege levels as the spec wrote them: none (every level), :u, :k, :uk.
enum class Mode : unsigned { kAll = 0, kUser = 1, kKernel = 2, kUserKernel = 3 };

// The largest catalog id (exclusive) an event metric can carry: 6 cluster bits and the item.
constexpr int kMaxEventId = 1 << 16;
// A group's formulas: 64 per group, groups below 1024.
constexpr int kMaxFormulas = 64;
constexpr int kMaxGroupId = 1 << 10;

// cluster = scope (2 bits) | kind (2 bits) | mode (2 bits) | id's high 6 bits; item = id's low
// 10 bits. Derived metrics put the group id's high bits where the mode is not needed.
constexpr MetricId EventMetricId(Scope scope, Kind kind, Mode mode, int event_id) {
  return {static_cast<unsigned>(scope) << 10 | static_cast<unsigned>(kind) << 8 |
              static_cast<unsigned>(mode) << 6 | (static_cast<unsigned>(event_id) >> 10 & 63u),
          static_cast<unsigned>(event_id) & 1023u};
}

constexpr MetricId DerivedMetricId(Scope scope, int group_id, int formula) {
  return {static_cast<unsigned>(scope) << 10 | static_cast<unsigned>(Kind::kDerived) << 8 |
              (static_cast<unsigned>(group_id) >> 4 & 63u),
          (static_cast<unsigned>(group_id) & 15u) << 6 | (static_cast<unsigned>(formula) & 63u)};
}

// The agent's own metrics (scope kAgent), items fixed.
enum AgentItem : unsigned {
  kStateItem = 0,    // pmapi.status.state: "counting ..." or the library's sentence
  kNoteItem = 1,     // pmapi.status.note: why the default is the software set, else ""
  kRefusedItem = 2,  // pmapi.status.refused: per refused event, the reason
  kEventsItem = 3,   // pmapi.status.events: the spec counted
  kCgroupItem = 4    // pmapi.status.cgroup_root: the directory whose children are jobs
};

constexpr MetricId AgentMetricId(AgentItem item) {
  return {static_cast<unsigned>(Scope::kAgent) << 10, item};
}

}  // namespace pmapi_pcp

#endif  // PMAPI_PCP_METRIC_IDS_H
