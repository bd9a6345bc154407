// SPDX-License-Identifier: MIT
// -j: perf stat -j's JSON, key for key as perf stat 6.1 writes it: one object per event (and
// per CPU, core or socket) per line, the count as a string ("0.609989" for task-clock in
// msec, "<not supported>"), then its running time and share and the metric perf prints
// beside it (perf_metric.h). A group's metrics come as objects with only metric-value and
// metric-unit. After -I intervals the totals come only with --summary, without an
// "interval" key. pmcount's own JSON, with the command, notes, sets and --stats, is --json
// (printer_json.cpp).
#include <math.h>

#include "json.h"
#include "perf_metric.h"
#include "printer.h"
#include "text_format.h"

namespace pmcount {
namespace {

using tools::Fixed;
using tools::JsonString;

std::string Key(const char *key, const std::string &value) {
  return "\"" + std::string(key) + "\" : " + value + ", ";
}

class PerfJsonPrinter : public Printer {
 public:
  std::string BeginIntervals(const Report &) override { return ""; }

  std::string Interval(const Report &report, const Snapshot &snapshot) override {
    had_intervals_ = true;
    return Lines(report, snapshot, Key("interval", tools::SecondsFromNs(snapshot.since_start_ns)));
  }

  std::string Final(const Report &report, const Snapshot &snapshot) override {
    if (had_intervals_ && !report.summary) return "";
    return Lines(report, snapshot, "");
  }

 private:
  static std::string RowKeys(const Report &report, const Row &row) {
    switch (report.aggregation) {
      case Aggregation::kTotal:
        return "";
      case Aggregation::kPerCpu:
        return Key("cpu", JsonString(row.cpu >= 0 ? std::to_string(row.cpu) : row.label));
      case Aggregation::kPerCore:
        return Key("core", JsonString(row.label)) +
               Key("aggregate-number", std::to_string(row.cpus));
      case Aggregation::kPerSocket:
        return Key("socket", JsonString(row.label)) +
               Key("aggregate-number", std::to_string(row.cpus));
      case Aggregation::kPerThread:
        return Key("thread", JsonString(row.label));
    }
    return "";
  }

  static std::string Lines(const Report &report, const Snapshot &snapshot,
                           const std::string &stamp) {
    std::string out;
    auto event_line = [&](const Row &row, size_t e) {
      const EventInfo &event = report.events[e];
      const Cell &cell = row.cells[e];
      std::string value = cell.state == CellState::kNotSupported ? "<not supported>"
                          : cell.state == CellState::kNotCounted
                              ? "<not counted>"
                              : Fixed(PerfValue(event, cell.value), 6);
      std::string line =
          "{" + stamp + RowKeys(report, row) + Key("counter-value", JsonString(value)) +
          Key("unit", JsonString(PerfUnit(event))) + Key("event", JsonString(event.name));
      if (report.runs > 1 && cell.state == CellState::kCounted) {
        line += Key("variance", Fixed(cell.spread_pct, 2));
      }
      const PerfMetric metric = PerfMetricOf(report, row, e, snapshot.span_ns);
      out += line + Key("event-runtime", std::to_string(cell.running_ns)) +
             Key("pcnt-running", Fixed(PercentRunning(cell), 2)) +
             Key("metric-value", Fixed(metric.value, 6)) +
             "\"metric-unit\" : " + JsonString(metric.unit) + "}\n";
    };
    auto metric_lines = [&](const Row &row) {
      for (size_t m = 0; m < report.metrics.size() && m < row.metrics.size(); ++m) {
        if (isnan(row.metrics[m]) || !report.metric_lines) continue;
        out += "{" + stamp + RowKeys(report, row) + Key("metric-value", Fixed(row.metrics[m], 6)) +
               "\"metric-unit\" : " + JsonString(report.metrics[m].name) + "}\n";
      }
    };
    ForEachPerfLine(report, snapshot, event_line, metric_lines);
    return out;
  }

  bool had_intervals_ = false;
};

}  // namespace

std::unique_ptr<Printer> MakePerfJsonPrinter() {
  return std::unique_ptr<Printer>(new PerfJsonPrinter);
}

}  // namespace pmcount
