// SPDX-License-Identifier: MIT
#include "multiplex_rows.h"

#include <algorithm>

namespace pmcount {

std::vector<Row> BuildMultiplexRows(const std::vector<Sample> &samples,
                                    const std::vector<CpuPlace> &places, Aggregation aggregation,
                                    const std::vector<std::vector<int>> &counters) {
  const size_t targets = places.empty() ? 1 : places.size();
  std::vector<Row> rows;
  for (size_t k = 0; k < counters.size(); ++k) {
    const size_t first = k * targets;
    std::vector<Sample> own;
    if (first + targets <= samples.size()) {
      own.assign(samples.begin() + static_cast<std::ptrdiff_t>(first),
                 samples.begin() + static_cast<std::ptrdiff_t>(first + targets));
    } else {
      own.assign(targets, Sample());  // no reading at all: every cell is <not counted>
      for (Sample &sample : own) sample.rc = -1;
    }
    std::vector<Row> set_rows = BuildRows(own, places, aggregation, counters[k]);
    if (k == 0) {
      rows = std::move(set_rows);
      continue;
    }
    // Every set has the same targets, hence the same rows in the same order.
    for (size_t r = 0; r < rows.size() && r < set_rows.size(); ++r) {
      rows[r].cells.insert(rows[r].cells.end(), set_rows[r].cells.begin(), set_rows[r].cells.end());
    }
  }
  return rows;
}

void ScaleMultiplexed(const std::vector<int> &set_of_event, std::vector<Row> *rows) {
  int sets = 0;
  for (int set : set_of_event) sets = std::max(sets, set + 1);
  for (Row &row : *rows) {
    // A set's time is the same in each of its counted cells (one group per target).
    std::vector<uint64_t> running(static_cast<size_t>(sets), 0);
    for (size_t e = 0; e < row.cells.size() && e < set_of_event.size(); ++e) {
      const Cell &cell = row.cells[e];
      if (cell.state != CellState::kCounted) continue;
      uint64_t &time = running[static_cast<size_t>(set_of_event[e])];
      time = std::max(time, cell.running_ns);
    }
    uint64_t total = 0;
    for (uint64_t time : running) total += time;
    for (size_t e = 0; e < row.cells.size() && e < set_of_event.size(); ++e) {
      Cell &cell = row.cells[e];
      if (cell.state != CellState::kCounted) continue;
      cell.raw = cell.value;
      cell.enabled_ns = total;
      // running_ns > 0: a cell is counted only when its set ran (BuildRows' rule).
      cell.value = cell.raw * static_cast<double>(total) / static_cast<double>(cell.running_ns);
    }
  }
}

double FractionRunning(const Cell &cell) {
  if (cell.enabled_ns == 0) return 0;
  return static_cast<double>(cell.running_ns) / static_cast<double>(cell.enabled_ns);
}

}  // namespace pmcount
