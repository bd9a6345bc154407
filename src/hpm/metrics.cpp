// SPDX-License-Identifier: MIT
// Derived metrics for the report, through the public extension pmapi_metrics.h: libhpm knows
// nothing of formulas itself.
#include "metrics.h"

#include <math.h>
#include <stdio.h>

namespace hpm {

void AttachMetrics(EventSet *set) {
  set->metrics = nullptr;
  set->num_metrics = 0;
  set->metric_members = 0;
  if (set->group_id < 0) return;
  pm_group_metrics_t info;
  int rc = pm_get_group_metrics(set->group_id, &info);
  if (rc != 0) {
    fprintf(stderr, "libhpm: %s; the report shows no derived metrics\n",
            pm_strerror("pm_get_group_metrics", rc));
    return;
  }
  set->metrics = info.metrics;
  set->num_metrics = info.maxmetrics;
  // The members are on counters 0..members-1 (event_set.cpp programs them in order); a set
  // that holds fewer passes what it has, and the formulas that read the others have no value.
  int counted = static_cast<int>(set->names.size());
  set->metric_members = info.members < counted ? info.members : counted;
}

std::vector<double> EvaluateMetrics(const EventSet &set, const std::atomic<long long> *counts,
                                    long long wall_ns) {
  std::vector<double> values(static_cast<size_t>(set.num_metrics), NAN);
  if (set.num_metrics == 0) return values;
  long long snapshot[MAX_COUNTERS];
  for (int i = 0; i < set.metric_members; ++i) snapshot[i] = counts[i].load();
  int rc =
      pm_evaluate_group_metrics(set.group_id, snapshot, set.metric_members,
                                static_cast<double>(wall_ns) / 1e9, values.data(), set.num_metrics);
  if (rc != 0) values.assign(values.size(), NAN);  // said nothing new: the set was described
  return values;
}

}  // namespace hpm
