/* SPDX-License-Identifier: MIT */
// -T: rows of a multiplexed count. Every event set counted alone for its slices; its cells get
// the set's raw count, the time the set counted, and the estimate for the whole run:
// raw x (the sets' times summed) / (this set's time), as AIX's accu_data * total / accu_time.
// Pure arithmetic, no pmapi calls.
#pragma once

#include <vector>

#include "count_report.h"
#include "count_rows.h"
#include "options.h"
#include "pmapi_counting.h"

namespace pmcount {

// Rows with every set's events side by side (set 0's first), raw counts as values.
// `samples` is set-major: set k's sample for target t is samples[k * targets + t], `targets`
// being places.size() system-wide and 1 for a command. counters[k][i] is the counter of set
// k's event i, or -1.
std::vector<Row> BuildMultiplexRows(const std::vector<Sample> &samples,
                                    const std::vector<CpuPlace> &places, Aggregation aggregation,
                                    const std::vector<std::vector<int>> &counters);

// Turns raw rows into estimates, row by row: a counted cell of set k keeps its count in
// `raw`, gets enabled_ns = the sets' counting times summed (the time anything counted) and
// value = raw x enabled_ns / running_ns. set_of_event[e] is the set of cell e.
void ScaleMultiplexed(const std::vector<int> &set_of_event, std::vector<Row> *rows);

// The fraction of the counting time a cell's set counted: in [0, 1], 0 when nothing counted.
double FractionRunning(const Cell &cell);

}  // namespace pmcount
