// SPDX-License-Identifier: MIT
// JSON lines: every interval is one object on one line, and so are the final counts, so that
// a reader can take each line as it comes (jq, python's json.loads per line). Values that do
// not exist are null, never a string in a number's place.
#include <math.h>

#include "json.h"
#include "multiplex_rows.h"
#include "printer.h"

namespace pmcount {
namespace {

using tools::JsonNumber;
using tools::JsonString;

const char *StateName(CellState state) {
  switch (state) {
    case CellState::kCounted:
      return "counted";
    case CellState::kNotSupported:
      return "not supported";
    case CellState::kNotCounted:
      return "not counted";
  }
  return "";
}

std::string RowKeys(const Report &report, const Row &row) {
  switch (report.aggregation) {
    case Aggregation::kTotal:
      return "";
    case Aggregation::kPerCpu:
      return "\"cpu\":" + (row.cpu >= 0 ? std::to_string(row.cpu) : JsonString(row.label)) + ",";
    case Aggregation::kPerCore:
      return "\"core\":" + JsonString(row.label) + ",\"cpus\":" + std::to_string(row.cpus) + ",";
    case Aggregation::kPerSocket:
      return "\"socket\":" + JsonString(row.label) + ",\"cpus\":" + std::to_string(row.cpus) + ",";
    case Aggregation::kPerThread:
      return "\"thread\":" + JsonString(row.label) + ",";
  }
  return "";
}

std::string Counters(const Report &report, const Snapshot &snapshot) {
  std::string out = "\"counters\":[";
  bool first = true;
  for (const Row &row : snapshot.rows) {
    for (size_t e = 0; e < report.events.size(); ++e) {
      const EventInfo &event = report.events[e];
      const Cell &cell = row.cells[e];
      out += first ? "{" : ",{";
      first = false;
      out += RowKeys(report, row);
      out += "\"event\":" + JsonString(event.name) + ",\"id\":" + std::to_string(event.id);
      out += ",\"value\":" + (cell.state == CellState::kCounted ? JsonNumber(cell.value) : "null");
      out += ",\"unit\":" + JsonString(event.unit);
      out += ",\"state\":" + JsonString(StateName(cell.state));
      if (cell.state == CellState::kNotSupported) out += ",\"reason\":" + JsonString(event.reason);
      out += ",\"enabled_ns\":" + JsonNumber(cell.enabled_ns);
      out += ",\"running_ns\":" + JsonNumber(cell.running_ns);
      out += ",\"percent_running\":" + JsonNumber(PercentRunning(cell));
      if (event.set >= 0) {
        // -T: value is the estimate; raw_value what the set counted, fraction its share.
        out += ",\"set\":" + std::to_string(event.set);
        out +=
            ",\"raw_value\":" + (cell.state == CellState::kCounted ? JsonNumber(cell.raw) : "null");
        out += ",\"fraction\":" + JsonNumber(FractionRunning(cell));
      }
      if (report.runs > 1) {
        out += ",\"spread_percent\":" +
               (cell.state == CellState::kCounted ? JsonNumber(cell.spread_pct) : "null");
      }
      out += "}";
    }
  }
  return out + "]";
}

std::string Metrics(const Report &report, const Snapshot &snapshot) {
  std::string out = "\"metrics\":[";
  bool first = true;
  for (const Row &row : snapshot.rows) {
    for (size_t m = 0; m < report.metrics.size() && m < row.metrics.size(); ++m) {
      out += first ? "{" : ",{";
      first = false;
      out += RowKeys(report, row) + "\"name\":" + JsonString(report.metrics[m].name) +
             ",\"group\":" + JsonString(report.metrics[m].group) +
             ",\"value\":" + JsonNumber(row.metrics[m]) + "}";
    }
  }
  return out + "]";
}

std::string Stats(const Report &report, const Snapshot &snapshot) {
  if (!report.stats) return "";
  std::string out = ",\"stats\":[";
  for (size_t e = 0; e < report.events.size() && e < snapshot.stats.size(); ++e) {
    const Stat &stat = snapshot.stats[e];
    if (e) out += ",";
    out += "{\"event\":" + JsonString(report.events[e].name);
    for (auto [key, value] : {std::pair<const char *, double>{"sum", stat.sum},
                              {"min", stat.min},
                              {"max", stat.max},
                              {"avg", stat.avg}}) {
      out += ",\"" + std::string(key) + "\":" + (stat.valid ? JsonNumber(value) : "null");
    }
    out += "}";
  }
  return out + "]";
}

std::string Strings(const std::vector<std::string> &items) {
  std::string out = "[";
  for (size_t i = 0; i < items.size(); ++i) out += (i ? "," : "") + JsonString(items[i]);
  return out + "]";
}

// Under an MPI launcher with no -o: the rank, first, in every object.
std::string Rank(const Report &report) {
  return report.rank.empty() ? "" : "\"rank\":" + JsonString(report.rank) + ",";
}

class JsonPrinter : public Printer {
 public:
  std::string BeginIntervals(const Report &) override { return ""; }

  std::string Interval(const Report &report, const Snapshot &snapshot) override {
    return "{" + Rank(report) + "\"interval\":true,\"time_s\":" +
           JsonNumber(static_cast<double>(snapshot.since_start_ns) / 1e9) + "," +
           Counters(report, snapshot) + "," + Metrics(report, snapshot) + Stats(report, snapshot) +
           "}\n";
  }

  std::string Final(const Report &report, const Snapshot &snapshot) override {
    std::string out = "{" + Rank(report) + "\"command\":" + Strings(report.command);
    out += ",\"system_wide\":" + std::string(report.system_wide ? "true" : "false");
    if (report.system_wide) out += ",\"cpus\":" + JsonString(report.cpus);
    if (!report.attached.empty()) out += ",\"attached\":" + JsonString(report.attached);
    out += ",\"mode\":" + JsonString(report.mode);
    if (!report.group.empty()) out += ",\"group\":" + JsonString(report.group);
    if (report.multiplex_ms > 0) {
      out += ",\"multiplex\":{\"slice_ms\":" + std::to_string(report.multiplex_ms) +
             ",\"sets\":" + std::to_string(report.sets) +
             ",\"rounds\":" + (report.rounds >= 0 ? std::to_string(report.rounds) : "null") + "}";
    }
    out += ",\"runs\":" + std::to_string(report.runs);
    if (!report.command.empty()) {
      out += ",\"exit_status\":" + std::to_string(report.exit_status);
      if (!report.ended.empty()) out += ",\"ended\":" + JsonString(report.ended);
    }
    if (report.has_times) {
      out += ",\"elapsed_ns\":" + JsonNumber(round(report.elapsed_ns));
      if (report.runs > 1) {
        out += ",\"elapsed_spread_percent\":" + JsonNumber(report.elapsed_spread_pct);
      } else if (!report.command.empty() && report.cpu_times_known) {
        out += ",\"user_ns\":" + JsonNumber(report.user_ns) +
               ",\"system_ns\":" + JsonNumber(report.system_ns);
      }
    }
    out += ",\"notes\":" + Strings(report.notes);
    out += "," + Counters(report, snapshot) + "," + Metrics(report, snapshot) +
           Stats(report, snapshot) + "}\n";
    return out;
  }
};

}  // namespace

std::unique_ptr<Printer> MakeJsonPrinter() { return std::unique_ptr<Printer>(new JsonPrinter); }

}  // namespace pmcount
