// SPDX-License-Identifier: MIT
// The table people read: aligned columns, thousands separators, the reason beside each
// <not supported>, the running share "(75.00%)" beside a multiplexed count (as perf stat shows
// it), metrics under the counts.
#include <math.h>

#include <algorithm>

#include "multiplex_rows.h"
#include "printer.h"
#include "text_format.h"

namespace pmcount {
namespace {

using tools::PadLeft;
using tools::PadRight;

constexpr size_t kMinValueWidth = 15;  // "<not supported>"

std::string Value(const Cell &cell, int runs) {
  switch (cell.state) {
    case CellState::kNotSupported:
      return "<not supported>";
    case CellState::kNotCounted:
      return "<not counted>";
    case CellState::kCounted:
      break;
  }
  // A mean over runs may have a fraction; one run's count never does.
  if (runs > 1 && cell.value != floor(cell.value)) return tools::FixedWithThousands(cell.value, 2);
  return tools::FixedWithThousands(cell.value, 0);
}

std::string MetricValue(double value) {
  if (isnan(value)) return "";
  return tools::FixedWithThousands(value, fabs(value) >= 1000 ? 1 : 3);
}

// The running share as perf stat shows it beside a scaled count: "(75.00%)".
std::string Share(double percent) { return "(" + tools::Fixed(percent, 2) + "%)"; }

std::string Annotation(const Report &report, const EventInfo &event, const Cell &cell) {
  std::string text;
  if (cell.state == CellState::kNotSupported) return event.reason;
  if (event.set >= 0) {
    // Multiplexed: the value is the estimate; the share says how much of the time it rests on.
    text = "[set " + std::to_string(event.set) + "]";
    if (cell.state == CellState::kCounted) {
      text += "  " + Share(100.0 * FractionRunning(cell)) + "  scaled up from " +
              tools::FixedWithThousands(cell.raw, 0) + " counted";
    } else {
      text += "  (the set never counted)";
    }
    return text;
  }
  if (cell.state == CellState::kCounted && cell.running_ns < cell.enabled_ns) {
    text = Share(PercentRunning(cell));
  }
  if (report.runs > 1 && cell.state == CellState::kCounted) {
    if (!text.empty()) text += "  ";
    text += "( +- " + tools::Fixed(cell.spread_pct, 2) + "% )";
  }
  return text;
}

// Column widths shared by every line of one block.
struct Widths {
  size_t label = 0;
  size_t value = kMinValueWidth;
  size_t name = 0;
};

bool ShowsCpuCount(const Report &report) {
  return report.aggregation == Aggregation::kPerCore ||
         report.aggregation == Aggregation::kPerSocket;
}

std::string RowPrefix(const Report &report, const Row &row, const Widths &widths) {
  if (widths.label == 0) return "";
  std::string prefix = PadRight(row.label, widths.label) + " ";
  if (ShowsCpuCount(report)) prefix += PadLeft(std::to_string(row.cpus), 4) + " ";
  return prefix;
}

Widths Measure(const Report &report, const Snapshot &snapshot) {
  Widths widths;
  for (const Row &row : snapshot.rows) {
    widths.label = std::max(widths.label, row.label.size());
    for (const Cell &cell : row.cells) {
      widths.value = std::max(widths.value, Value(cell, report.runs).size());
    }
    for (double metric : row.metrics) {
      widths.value = std::max(widths.value, MetricValue(metric).size());
    }
  }
  for (const EventInfo &event : report.events)
    widths.name = std::max(widths.name, event.name.size());
  for (const MetricInfo &metric : report.metrics) {
    widths.name = std::max(widths.name, metric.name.size());
  }
  return widths;
}

std::string CountLines(const Report &report, const Snapshot &snapshot, const Widths &widths,
                       const std::string &timestamp) {
  std::string out;
  for (const Row &row : snapshot.rows) {
    for (size_t e = 0; e < report.events.size(); ++e) {
      const EventInfo &event = report.events[e];
      const Cell &cell = row.cells[e];
      std::string line = timestamp + RowPrefix(report, row, widths) +
                         PadLeft(Value(cell, report.runs), widths.value + 2) + " " +
                         PadRight(event.unit, 2) + "  ";
      const std::string annotation = Annotation(report, event, cell);
      line +=
          annotation.empty() ? event.name : PadRight(event.name, widths.name) + "  " + annotation;
      out += line + "\n";
    }
  }
  return out;
}

std::string MetricLines(const Report &report, const Snapshot &snapshot, const Widths &widths,
                        const std::string &timestamp) {
  std::string out;
  for (const Row &row : snapshot.rows) {
    for (size_t m = 0; m < report.metrics.size() && m < row.metrics.size(); ++m) {
      const std::string value = MetricValue(row.metrics[m]);
      if (value.empty()) continue;  // a member was not counted: no honest value
      out += timestamp + RowPrefix(report, row, widths) + PadLeft(value, widths.value + 2) +
             "     " + PadRight(report.metrics[m].name, widths.name) + "  [" +
             report.metrics[m].group + "]\n";
    }
  }
  return out;
}

std::string StatsLines(const Report &report, const Snapshot &snapshot) {
  if (!report.stats || snapshot.stats.empty()) return "";
  size_t name_width = 5;
  for (const EventInfo &event : report.events) name_width = std::max(name_width, event.name.size());
  size_t width = 12;
  for (const Stat &stat : snapshot.stats) {
    for (double v : {stat.sum, stat.min, stat.max, stat.avg}) {
      width = std::max(width, tools::FixedWithThousands(v, v == floor(v) ? 0 : 1).size());
    }
  }
  std::string out = " " + PadRight("CPUs " + report.cpus, name_width) + "  " +
                    PadLeft("sum", width) + "  " + PadLeft("min", width) + "  " +
                    PadLeft("max", width) + "  " + PadLeft("avg", width) + "\n";
  for (size_t e = 0; e < report.events.size() && e < snapshot.stats.size(); ++e) {
    const Stat &stat = snapshot.stats[e];
    out += " " + PadRight(report.events[e].name, name_width);
    if (!stat.valid) {
      out += "  " + PadLeft("<not counted>", width) + "\n";
      continue;
    }
    for (double v : {stat.sum, stat.min, stat.max, stat.avg}) {
      out += "  " + PadLeft(tools::FixedWithThousands(v, v == floor(v) ? 0 : 1), width);
    }
    out += "\n";
  }
  return out;
}

std::string Heading(const Report &report) {
  std::string what;
  if (report.system_wide) {
    what = "CPUs " + report.cpus + " (system-wide)";
    if (!report.command.empty()) what += " while running " + CommandLine(report);
  } else if (!report.attached.empty()) {
    what = report.attached;
    if (!report.command.empty()) what += " while running " + CommandLine(report);
  } else {
    what = CommandLine(report);
  }
  std::string how = report.mode + " mode";
  if (!report.group.empty()) how += ", group " + report.group;
  if (report.runs > 1) how += ", mean of " + std::to_string(report.runs) + " runs";
  if (report.multiplex_ms > 0) {
    how += ", " + std::to_string(report.sets) + " event sets multiplexed at " +
           std::to_string(report.multiplex_ms) + " ms";
    if (report.rounds >= 0) how += " (" + std::to_string(report.rounds) + " complete rounds)";
  }
  return " Counts for " + what + "\n " + how + "\n";
}

std::string Notes(const Report &report) {
  std::string out;
  for (const std::string &note : report.notes) out += "note: " + note + "\n";
  return out;
}

std::string Times(const Report &report) {
  if (!report.has_times) return "";
  std::string out;
  const std::string elapsed = tools::SecondsFromNs(static_cast<uint64_t>(report.elapsed_ns));
  if (report.runs > 1) {
    out += PadLeft(elapsed, 20) + " seconds elapsed  ( +- " +
           tools::Fixed(report.elapsed_spread_pct, 2) + "% )\n";
  } else {
    out += PadLeft(elapsed, 20) + " seconds elapsed\n";
    // No command: no user or system time of its own; targets that exited: none known.
    if (report.command.empty() || !report.cpu_times_known) return out;
    out += PadLeft(tools::SecondsFromNs(report.user_ns), 20) + " seconds user\n";
    out += PadLeft(tools::SecondsFromNs(report.system_ns), 20) + " seconds system\n";
  }
  return out;
}

// Under an MPI launcher with no -o, every line starts "[rank N]": ranks writing to one
// terminal at once interleave their lines, and each line must still say whose it is.
std::string Labelled(const Report &report, const std::string &text) {
  if (report.rank.empty()) return text;
  const std::string label = "[rank " + report.rank + "]";
  std::string out;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    out += label + (end > start ? " " : "") + text.substr(start, end - start) + "\n";
    start = end + 1;
  }
  return out;
}

class HumanPrinter : public Printer {
 public:
  std::string BeginIntervals(const Report &report) override {
    notes_done_ = true;
    return Labelled(report, Notes(report) + "#" + PadLeft("time", 19) + "   counts\n");
  }

  std::string Interval(const Report &report, const Snapshot &snapshot) override {
    const std::string stamp = PadLeft(tools::SecondsFromNs(snapshot.since_start_ns), 20) + " ";
    const Widths widths = Measure(report, snapshot);
    return Labelled(report, CountLines(report, snapshot, widths, stamp) +
                                MetricLines(report, snapshot, widths, stamp));
  }

  std::string Final(const Report &report, const Snapshot &snapshot) override {
    return Labelled(report, Table(report, snapshot));
  }

 private:
  std::string Table(const Report &report, const Snapshot &snapshot) {
    std::string out = notes_done_ ? "" : Notes(report);
    out += "\n" + Heading(report) + "\n";
    const Widths widths = Measure(report, snapshot);
    out += CountLines(report, snapshot, widths, "");
    const std::string metrics = MetricLines(report, snapshot, widths, "");
    if (!metrics.empty()) out += "\n" + metrics;
    const std::string stats = StatsLines(report, snapshot);
    if (!stats.empty()) out += "\n" + stats;
    const std::string times = Times(report);
    if (!times.empty()) out += "\n" + times;
    if (!report.ended.empty()) out += "\n The command was " + report.ended + ".\n";
    return out + "\n";
  }

  bool notes_done_ = false;
};

}  // namespace

std::unique_ptr<Printer> MakeHumanPrinter() { return std::unique_ptr<Printer>(new HumanPrinter); }

}  // namespace pmcount
