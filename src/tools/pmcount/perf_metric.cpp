// SPDX-License-Identifier: MIT
#include "perf_metric.h"

#include "text_format.h"

namespace pmcount {
namespace {

// The value as perf's CSV writes it: printf's format, blanks and the trailing text cut off.
std::string Trimmed(double value, int decimals) { return tools::Fixed(value, decimals); }

PerfMetric Metric(double value, int decimals, const std::string &unit) {
  PerfMetric metric;
  metric.shown = true;
  metric.value = value;
  metric.text = Trimmed(value, decimals);
  metric.unit = unit;
  return metric;
}

// The first counted event of `kind` in `row`, or null.
const Cell *Find(const Report &report, const Row &row, PerfKind kind) {
  for (size_t e = 0; e < report.events.size() && e < row.cells.size(); ++e) {
    if (report.events[e].kind == kind && row.cells[e].state == CellState::kCounted) {
      return &row.cells[e];
    }
  }
  return nullptr;
}

// A ratio of `value` to the first counted event of `kind`; empty fields when there is none,
// as perf leaves them.
PerfMetric RatioTo(const Report &report, const Row &row, double value, PerfKind kind, double factor,
                   int decimals, const std::string &unit) {
  const Cell *base = Find(report, row, kind);
  if (!base || base->value == 0) return PerfMetric();
  return Metric(factor * value / base->value, decimals, unit);
}

}  // namespace

PerfKind PerfKindOf(const std::string &encoding) {
  std::string name = encoding;
  if (name.compare(0, 6, "perf::") == 0) name = name.substr(6);
  const size_t colon = name.find(':');
  if (colon != std::string::npos) name = name.substr(0, colon);  // :u, :k
  struct Known {
    const char *name;
    PerfKind kind;
  };
  static const Known kKnown[] = {
      {"PERF_COUNT_SW_TASK_CLOCK", PerfKind::kClock},
      {"PERF_COUNT_SW_CPU_CLOCK", PerfKind::kClock},
      {"PERF_COUNT_HW_CPU_CYCLES", PerfKind::kCycles},
      {"CYCLES", PerfKind::kCycles},
      {"CPU-CYCLES", PerfKind::kCycles},
      {"PERF_COUNT_HW_INSTRUCTIONS", PerfKind::kInstructions},
      {"INSTRUCTIONS", PerfKind::kInstructions},
      {"PERF_COUNT_HW_BRANCH_INSTRUCTIONS", PerfKind::kBranches},
      {"BRANCH-INSTRUCTIONS", PerfKind::kBranches},
      {"BRANCHES", PerfKind::kBranches},
      {"PERF_COUNT_HW_BRANCH_MISSES", PerfKind::kBranchMisses},
      {"BRANCH-MISSES", PerfKind::kBranchMisses},
      {"PERF_COUNT_HW_CACHE_REFERENCES", PerfKind::kCacheReferences},
      {"CACHE-REFERENCES", PerfKind::kCacheReferences},
      {"PERF_COUNT_HW_CACHE_MISSES", PerfKind::kCacheMisses},
      {"CACHE-MISSES", PerfKind::kCacheMisses},
  };
  for (const Known &known : kKnown) {
    if (name == known.name) return known.kind;
  }
  return PerfKind::kOther;
}

double PerfValue(const EventInfo &event, double value) {
  return event.kind == PerfKind::kClock ? value / 1e6 : value;
}

std::string PerfUnit(const EventInfo &event) {
  return event.kind == PerfKind::kClock ? "msec" : event.unit;
}

PerfMetric PerfMetricOf(const Report &report, const Row &row, size_t e, uint64_t span_ns) {
  const Cell &cell = row.cells[e];
  if (cell.state != CellState::kCounted) return PerfMetric();
  switch (report.events[e].kind) {
    case PerfKind::kClock:
      // The clock's time over the wall time: how many CPUs were busy on average.
      if (span_ns == 0) return PerfMetric();
      return Metric(cell.value / static_cast<double>(span_ns), 3, "CPUs utilized");
    case PerfKind::kCycles:
      return RatioTo(report, row, cell.value, PerfKind::kClock, 1, 3, "GHz");
    case PerfKind::kInstructions:
      return RatioTo(report, row, cell.value, PerfKind::kCycles, 1, 2, "insn per cycle");
    case PerfKind::kBranchMisses:
      return RatioTo(report, row, cell.value, PerfKind::kBranches, 100, 2, "of all branches");
    case PerfKind::kCacheMisses:
      return RatioTo(report, row, cell.value, PerfKind::kCacheReferences, 100, 3,
                     "of all cache refs");
    case PerfKind::kBranches:
    case PerfKind::kCacheReferences:
    case PerfKind::kOther:
      break;
  }
  // Any other event: its rate per second of clock time, with perf's K, M and G steps.
  const Cell *clock = Find(report, row, PerfKind::kClock);
  if (!clock) return PerfMetric();
  double rate = clock->value > 0 ? 1e9 * cell.value / clock->value : 0;
  std::string unit = "/sec";
  if (rate > 1e9) {
    rate /= 1e9;
    unit = "G/sec";
  } else if (rate > 1e6) {
    rate /= 1e6;
    unit = "M/sec";
  } else if (rate > 1e3) {
    rate /= 1e3;
    unit = "K/sec";
  }
  return Metric(rate, 3, unit);
}

void ForEachPerfLine(const Report &report, const Snapshot &snapshot,
                     const std::function<void(const Row &, size_t)> &event_line,
                     const std::function<void(const Row &)> &metric_lines) {
  if (report.aggregation == Aggregation::kPerCpu) {
    for (size_t e = 0; e < report.events.size(); ++e) {
      for (const Row &row : snapshot.rows) event_line(row, e);
    }
    for (const Row &row : snapshot.rows) metric_lines(row);
    return;
  }
  for (const Row &row : snapshot.rows) {
    for (size_t e = 0; e < report.events.size(); ++e) event_line(row, e);
    metric_lines(row);
  }
}

}  // namespace pmcount
