/* SPDX-License-Identifier: MIT */
// From raw samples to report rows: summing CPUs into cores and sockets, interval deltas,
// cross-CPU statistics and the mean of repeated runs. Pure arithmetic, no pmapi calls.
#pragma once

#include <vector>

#include "count_report.h"
#include "pmapi_counting.h"

namespace tools {

struct CpuPlace {
  int linux_cpu = -1;
  int core = -1;     // hwloc logical core index, -1 if unknown
  int package = -1;  // hwloc logical package index, -1 if unknown
};

// Rows from one sample per reported CPU (`places` in the same order), or from the single
// sample of a command (`places` empty: one row, the total). counter_of_event[i] is the pmapi
// counter holding event i, or -1 when the event is <not supported>.
std::vector<Row> BuildRows(const std::vector<Sample> &samples, const std::vector<CpuPlace> &places,
                           Aggregation aggregation, const std::vector<int> &counter_of_event);

// `now` minus `before`: the counts and times of one interval.
Sample Difference(const Sample &now, const Sample &before);

// Sum, min, max and average of each event over `per_cpu` rows (cells that were counted).
std::vector<Stat> CrossCpuStats(const std::vector<Row> &per_cpu, size_t events);

// The mean of each cell over runs (every run has the same rows), with the relative standard
// error of the mean as the spread, as perf stat -r reports it.
std::vector<Row> MeanOfRuns(const std::vector<std::vector<Row>> &runs);

// Mean and relative standard error (percent; 0 for one value or a zero mean) of `values`.
void MeanAndSpread(const std::vector<double> &values, double *mean, double *spread_pct);

}  // namespace tools
