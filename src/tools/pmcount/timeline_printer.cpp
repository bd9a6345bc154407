// SPDX-License-Identifier: MIT
#include "timeline_printer.h"

#include <math.h>

namespace pmcount {

TimelinePrinter::TimelinePrinter(std::unique_ptr<Printer> inner, tools::OutputFile *file,
                                 long interval_ms)
    : inner_(std::move(inner)), file_(file), interval_ms_(interval_ms) {}

std::string TimelinePrinter::BeginIntervals(const Report &report) {
  return inner_->BeginIntervals(report);
}

std::string TimelinePrinter::Interval(const Report &report, const Snapshot &snapshot) {
  // A series per row and event ("CPU1 task-clock" when split by CPU), made at the first
  // interval: every interval has the same rows.
  if (timeline_.series.empty()) {
    for (const Row &row : snapshot.rows)
      for (const EventInfo &event : report.events) {
        tools::TimelineSeries series;
        series.name = row.label.empty() ? event.name : row.label + " " + event.name;
        series.unit = event.unit;
        timeline_.series.push_back(series);
      }
  }
  timeline_.times_ms.push_back(static_cast<double>(snapshot.since_start_ns) / 1e6);
  size_t next = 0;
  for (const Row &row : snapshot.rows)
    for (size_t e = 0; e < report.events.size() && next < timeline_.series.size(); ++e, ++next) {
      const bool counted = e < row.cells.size() && row.cells[e].state == CellState::kCounted;
      timeline_.series[next].values.push_back(counted ? row.cells[e].value : NAN);
    }
  return inner_->Interval(report, snapshot);
}

std::string TimelinePrinter::Final(const Report &report, const Snapshot &snapshot) {
  std::string text = inner_->Final(report, snapshot);
  timeline_.title = "pmcount " + CommandLine(report);
  timeline_.subtitle = "counts per interval of " + std::to_string(interval_ms_) + " ms" +
                       (report.mode.empty() ? "" : ", " + report.mode);
  std::string page = tools::TimelineHtml(timeline_);
  error_ = file_->Write(page.data(), page.size());
  if (error_.empty()) error_ = file_->Commit();
  return text;
}

}  // namespace pmcount
