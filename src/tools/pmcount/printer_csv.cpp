// SPDX-License-Identifier: MIT
// perf stat -x's "not-quite-CSV", field for field as perf stat 6.1 writes it, so that a
// script that parses `perf stat -x,` parses ours (fields are never quoted: pick a separator
// that no event name contains):
//   [interval time] [CPU/core/socket] [CPUs summed] value unit event [spread%] run-time
//   running% metric-value metric-unit
// Counts are integers (a mean over -r runs rounded, as perf does); the clocks are
// milliseconds with two decimals ("0.62,msec,task-clock"); a count that has none is
// <not supported> or <not counted>. metric-value and metric-unit hold the metric perf prints
// beside the event (perf_metric.h). With -g the group's metrics follow on lines of their own with
// the count fields empty, as perf's extra metric lines are. After -I intervals the totals come only
// with --summary, marked "summary" in the time field. --stats adds lines labelled sum, min,
// max and avg (perf has no such option).
#include <math.h>
#include <stdio.h>

#include "perf_metric.h"
#include "printer.h"
#include "text_format.h"

namespace pmcount {
namespace {

// The time field: perf's "%6lu.%09lu" (right-aligned in 16 columns), and "summary" likewise.
std::string TimeField(uint64_t ns) {
  char text[48];
  snprintf(text, sizeof text, "%6llu.%09llu", static_cast<unsigned long long>(ns / 1000000000),
           static_cast<unsigned long long>(ns % 1000000000));
  return text;
}

// A count as perf's CSV writes it: clocks in milliseconds with two decimals, other counts
// rounded to whole numbers (perf picks the format by the event's scale, not its value).
std::string PerfCsvValue(const EventInfo &event, double value) {
  return tools::Fixed(PerfValue(event, value), event.kind == PerfKind::kClock ? 2 : 0);
}

class CsvPrinter : public Printer {
 public:
  explicit CsvPrinter(std::string separator) : sep_(std::move(separator)) {}

  std::string BeginIntervals(const Report &) override { return ""; }

  std::string Interval(const Report &report, const Snapshot &snapshot) override {
    had_intervals_ = true;
    return Lines(report, snapshot, TimeField(snapshot.since_start_ns) + sep_);
  }

  std::string Final(const Report &report, const Snapshot &snapshot) override {
    // perf stat -I prints no totals unless --summary, and then marks them "summary".
    if (!had_intervals_) return Lines(report, snapshot, "");
    if (!report.summary) return "";
    return Lines(report, snapshot, tools::PadLeft("summary", 16) + sep_);
  }

 private:
  bool PerRow(const Report &report) const { return report.aggregation != Aggregation::kTotal; }
  bool CpuCount(const Report &report) const {
    return report.aggregation == Aggregation::kPerCore ||
           report.aggregation == Aggregation::kPerSocket;
  }

  std::string Prefix(const Report &report, const Row &row, const std::string &stamp) const {
    std::string prefix = stamp;
    if (PerRow(report)) prefix += row.label + sep_;
    if (CpuCount(report)) prefix += std::to_string(row.cpus) + sep_;
    return prefix;
  }

  std::string Lines(const Report &report, const Snapshot &snapshot, const std::string &stamp) {
    std::string out;
    const std::string spread_gap = report.runs > 1 ? sep_ : "";
    auto event_line = [&](const Row &row, size_t e) {
      const EventInfo &event = report.events[e];
      const Cell &cell = row.cells[e];
      std::string value;
      switch (cell.state) {
        case CellState::kNotSupported:
          value = "<not supported>";
          break;
        case CellState::kNotCounted:
          value = "<not counted>";
          break;
        case CellState::kCounted:
          value = PerfCsvValue(event, cell.value);
          break;
      }
      std::string line =
          Prefix(report, row, stamp) + value + sep_ + PerfUnit(event) + sep_ + event.name + sep_;
      if (report.runs > 1) {
        line += (cell.state == CellState::kCounted ? tools::Fixed(cell.spread_pct, 2) + "%" : "") +
                sep_;
      }
      const PerfMetric metric = PerfMetricOf(report, row, e, snapshot.span_ns);
      return line + std::to_string(cell.running_ns) + sep_ + tools::Fixed(PercentRunning(cell), 2) +
             sep_ + metric.text + sep_ + metric.unit + "\n";
    };
    auto metric_lines = [&](const Row &row) {
      std::string lines;
      for (size_t m = 0; m < report.metrics.size() && m < row.metrics.size(); ++m) {
        if (isnan(row.metrics[m]) || !report.metric_lines) continue;
        lines += Prefix(report, row, stamp) + sep_ + sep_ + sep_ + spread_gap + sep_ + sep_ +
                 tools::Fixed(row.metrics[m], 6) + sep_ + report.metrics[m].name + "\n";
      }
      return lines;
    };
    ForEachPerfLine(
        report, snapshot, [&](const Row &row, size_t e) { out += event_line(row, e); },
        [&](const Row &row) { out += metric_lines(row); });
    if (report.stats) {
      static const char *const kNames[] = {"sum", "min", "max", "avg"};
      for (int k = 0; k < 4; ++k) {
        for (size_t e = 0; e < report.events.size() && e < snapshot.stats.size(); ++e) {
          const EventInfo &event = report.events[e];
          const Stat &stat = snapshot.stats[e];
          const double v[] = {stat.sum, stat.min, stat.max, stat.avg};
          std::string value = stat.valid ? PerfCsvValue(event, v[k]) : "<not counted>";
          out += stamp + kNames[k] + sep_ + (CpuCount(report) ? sep_ : "") + value + sep_ +
                 PerfUnit(event) + sep_ + event.name + sep_ + spread_gap + sep_ + sep_ + sep_ +
                 "\n";
        }
      }
    }
    return out;
  }

  std::string sep_;
  bool had_intervals_ = false;
};

}  // namespace

std::unique_ptr<Printer> MakeCsvPrinter(const std::string &separator) {
  return std::unique_ptr<Printer>(new CsvPrinter(separator));
}

}  // namespace pmcount
