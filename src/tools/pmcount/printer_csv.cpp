// perf stat -x's "not-quite-CSV" (fields are never quoted, so pick a separator that no event
// name contains), in the field order of the perf stat installed here (6.1):
//   [interval time] [CPU/core/socket] [CPUs summed] value unit event [spread%] run-time
//   running% metric-value metric-unit
// Counts are plain integers (no separators); a count that has none is <not supported> or
// <not counted>. Metric lines leave the count fields empty and fill the metric ones, as perf's
// metric-only lines do. --stats adds lines labelled sum, min, max and avg.
// -T: the value is the set's estimate, run-time the time its set counted, running% its share
// of the time any set counted, and two fields follow metric-unit: the set and the raw count.
#include <math.h>

#include "printer.h"
#include "text_format.h"

namespace pmcount {
namespace {

class CsvPrinter : public Printer {
 public:
  explicit CsvPrinter(std::string separator) : sep_(std::move(separator)) {}

  std::string BeginIntervals(const Report &) override { return ""; }

  std::string Interval(const Report &report, const Snapshot &snapshot) override {
    return Lines(report, snapshot, tools::SecondsFromNs(snapshot.since_start_ns) + sep_);
  }

  std::string Final(const Report &report, const Snapshot &snapshot) override {
    // After intervals perf marks the totals "summary" in the time field.
    return Lines(report, snapshot, had_intervals_ ? "summary" + sep_ : "");
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
    if (snapshot.interval) had_intervals_ = true;
    std::string out;
    const std::string spread_gap = report.runs > 1 ? sep_ : "";
    for (const Row &row : snapshot.rows) {
      for (size_t e = 0; e < report.events.size(); ++e) {
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
            value = tools::Fixed(cell.value,
                                 report.runs > 1 && cell.value != floor(cell.value) ? 2 : 0);
            break;
        }
        std::string line = Prefix(report, row, stamp) + value + sep_ + report.events[e].unit +
                           sep_ + report.events[e].name + sep_;
        if (report.runs > 1) {
          line +=
              (cell.state == CellState::kCounted ? tools::Fixed(cell.spread_pct, 2) + "%" : "") +
              sep_;
        }
        line += std::to_string(cell.running_ns) + sep_ + tools::Fixed(PercentRunning(cell), 2) +
                sep_ + sep_;
        if (report.multiplex_ms > 0) {
          // -T: two more fields, the event's set and its raw count (the value is the estimate).
          line += sep_ + std::to_string(report.events[e].set) + sep_ +
                  (cell.state == CellState::kCounted ? tools::Fixed(cell.raw, 0) : "");
        }
        out += line + "\n";
      }
      for (size_t m = 0; m < report.metrics.size() && m < row.metrics.size(); ++m) {
        if (isnan(row.metrics[m])) continue;
        out += Prefix(report, row, stamp) + sep_ + sep_ + sep_ + spread_gap + sep_ + sep_ +
               tools::Fixed(row.metrics[m], 6) + sep_ + report.metrics[m].name + "\n";
      }
    }
    if (report.stats) {
      static const char *const kNames[] = {"sum", "min", "max", "avg"};
      for (int k = 0; k < 4; ++k) {
        for (size_t e = 0; e < report.events.size() && e < snapshot.stats.size(); ++e) {
          const Stat &stat = snapshot.stats[e];
          const double v[] = {stat.sum, stat.min, stat.max, stat.avg};
          std::string value =
              stat.valid ? tools::Fixed(v[k], v[k] == floor(v[k]) ? 0 : 2) : "<not counted>";
          out += stamp + kNames[k] + sep_ + (CpuCount(report) ? sep_ : "") + value + sep_ +
                 report.events[e].unit + sep_ + report.events[e].name + sep_ + spread_gap + sep_ +
                 sep_ + sep_ + "\n";
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
