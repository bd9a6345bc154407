// SPDX-License-Identifier: MIT
#include "count_rows.h"

#include <math.h>

#include <algorithm>
#include <map>

namespace tools {
namespace {

bool HasData(const Sample &sample) { return sample.rc == 0 || sample.rc == Pmapi_Multiplexed; }

Cell CellOf(const Sample &sample, int counter) {
  Cell cell;
  if (counter < 0) {
    cell.state = CellState::kNotSupported;
    return cell;
  }
  // perf's rule: an event that never ran (or a group the kernel could not schedule) has no
  // count to show, which is different from a count of zero.
  if (!HasData(sample) || sample.running_ns == 0) {
    cell.state = CellState::kNotCounted;
    return cell;
  }
  const size_t at = static_cast<size_t>(counter);
  const bool own_times = at < sample.running_of.size() && at < sample.enabled_of.size();
  cell.enabled_ns = own_times ? sample.enabled_of[at] : sample.enabled_ns;
  cell.running_ns = own_times ? sample.running_of[at] : sample.running_ns;
  if (cell.running_ns == 0 || at >= sample.values.size()) {
    cell = Cell();
    cell.state = CellState::kNotCounted;
    return cell;
  }
  cell.value = static_cast<double>(sample.values[at]);
  return cell;
}

// Adds `cell` into `sum`; a sum is counted if any of its parts is.
void Accumulate(const Cell &cell, Cell *sum, bool first) {
  if (first) {
    *sum = cell;
    return;
  }
  if (cell.state == CellState::kCounted) {
    if (sum->state != CellState::kCounted) *sum = Cell();
    sum->value += cell.value;
    sum->enabled_ns += cell.enabled_ns;
    sum->running_ns += cell.running_ns;
  }
}

std::string Label(Aggregation aggregation, const CpuPlace &place) {
  switch (aggregation) {
    case Aggregation::kPerCore:
      if (place.core >= 0 && place.package >= 0) {
        return "S" + std::to_string(place.package) + "-C" + std::to_string(place.core);
      }
      break;  // unknown topology: one row per CPU
    case Aggregation::kPerSocket:
      if (place.package >= 0) return "S" + std::to_string(place.package);
      break;
    case Aggregation::kTotal:
      return "";
    case Aggregation::kPerCpu:
    case Aggregation::kPerThread:
      break;
  }
  return "CPU" + std::to_string(place.linux_cpu);
}

}  // namespace

std::vector<Row> BuildRows(const std::vector<Sample> &samples, const std::vector<CpuPlace> &places,
                           Aggregation aggregation, const std::vector<int> &counter_of_event) {
  std::vector<Row> rows;
  std::map<std::string, size_t> row_of_label;
  for (size_t s = 0; s < samples.size(); ++s) {
    const std::string label = places.empty() ? "" : Label(aggregation, places[s]);
    auto found = row_of_label.find(label);
    const bool first = found == row_of_label.end();
    if (first) {
      row_of_label[label] = rows.size();
      rows.emplace_back();
      rows.back().label = label;
      if (!places.empty() && label == "CPU" + std::to_string(places[s].linux_cpu)) {
        rows.back().cpu = places[s].linux_cpu;
      }
      rows.back().cells.resize(counter_of_event.size());
    }
    Row &row = rows[first ? rows.size() - 1 : found->second];
    ++row.cpus;
    for (size_t e = 0; e < counter_of_event.size(); ++e) {
      Accumulate(CellOf(samples[s], counter_of_event[e]), &row.cells[e], first);
    }
  }
  return rows;
}

Sample Difference(const Sample &now, const Sample &before) {
  Sample delta = now;
  if (!HasData(now) || !HasData(before)) return delta;
  // Counters only grow; a smaller value means the read before failed half-way: no delta.
  auto minus = [](std::vector<uint64_t> *now_values, const std::vector<uint64_t> &earlier) {
    for (size_t i = 0; i < now_values->size() && i < earlier.size(); ++i) {
      uint64_t &value = (*now_values)[i];
      value = value >= earlier[i] ? value - earlier[i] : 0;
    }
  };
  minus(&delta.values, before.values);
  minus(&delta.enabled_of, before.enabled_of);
  minus(&delta.running_of, before.running_of);
  delta.enabled_ns = now.enabled_ns >= before.enabled_ns ? now.enabled_ns - before.enabled_ns : 0;
  delta.running_ns = now.running_ns >= before.running_ns ? now.running_ns - before.running_ns : 0;
  return delta;
}

std::vector<Stat> CrossCpuStats(const std::vector<Row> &per_cpu, size_t events) {
  std::vector<Stat> stats(events);
  for (size_t e = 0; e < events; ++e) {
    Stat &stat = stats[e];
    size_t counted = 0;
    for (const Row &row : per_cpu) {
      const Cell &cell = row.cells[e];
      if (cell.state != CellState::kCounted) continue;
      if (counted == 0) {
        stat.min = stat.max = cell.value;
      } else {
        stat.min = std::min(stat.min, cell.value);
        stat.max = std::max(stat.max, cell.value);
      }
      stat.sum += cell.value;
      ++counted;
    }
    stat.valid = counted > 0;
    if (counted) stat.avg = stat.sum / static_cast<double>(counted);
  }
  return stats;
}

void MeanAndSpread(const std::vector<double> &values, double *mean, double *spread_pct) {
  *mean = 0;
  *spread_pct = 0;
  if (values.empty()) return;
  double sum = 0;
  for (double v : values) sum += v;
  const double n = static_cast<double>(values.size());
  *mean = sum / n;
  if (values.size() < 2 || *mean == 0) return;
  double squares = 0;
  for (double v : values) squares += (v - *mean) * (v - *mean);
  const double standard_error = sqrt(squares / (n - 1) / n);
  *spread_pct = 100.0 * standard_error / fabs(*mean);
}

std::vector<Row> MeanOfRuns(const std::vector<std::vector<Row>> &runs) {
  if (runs.empty()) return {};
  std::vector<Row> mean = runs.back();
  for (size_t r = 0; r < mean.size(); ++r) {
    for (size_t e = 0; e < mean[r].cells.size(); ++e) {
      std::vector<double> values;
      double enabled = 0, running = 0;
      for (const std::vector<Row> &run : runs) {
        if (r >= run.size() || e >= run[r].cells.size()) continue;
        const Cell &cell = run[r].cells[e];
        if (cell.state != CellState::kCounted) continue;
        values.push_back(cell.value);
        enabled += static_cast<double>(cell.enabled_ns);
        running += static_cast<double>(cell.running_ns);
      }
      Cell &out = mean[r].cells[e];
      if (values.empty()) continue;  // keeps the last run's state: not supported or counted
      out.state = CellState::kCounted;
      MeanAndSpread(values, &out.value, &out.spread_pct);
      const double n = static_cast<double>(values.size());
      out.enabled_ns = static_cast<uint64_t>(enabled / n);
      out.running_ns = static_cast<uint64_t>(running / n);
    }
  }
  return mean;
}

}  // namespace tools
