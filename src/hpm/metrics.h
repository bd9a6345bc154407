/* SPDX-License-Identifier: MIT */
// The derived metrics of libhpm's event set: when the set is a group with formulas, the
// report shows each section's metrics, evaluated through pmapi_metrics.h from the section's
// counts and wall time. An event list has none.
#pragma once

#include <atomic>
#include <vector>

#include "event_set.h"

namespace hpm {

// Looks the set's group up (pm_get_group_metrics) and records its metrics in `set`; an event
// list, or a group the library cannot describe (said once on stderr), gets none.
void AttachMetrics(EventSet *set);

// The metrics of one section, from its counts (one per counter of the set) and wall time;
// NaN for a metric without a value (division by zero, a count the set lacks).
std::vector<double> EvaluateMetrics(const EventSet &set, const std::atomic<long long> *counts,
                                    long long wall_ns);

}  // namespace hpm
