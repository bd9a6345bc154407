// SPDX-License-Identifier: MIT
// The metric perf stat prints beside a hardware event (perf_metric.h), in -x's and -j's
// metric-value and metric-unit fields: GHz on cycles, insn per cycle on instructions, the miss
// percentages on branch and cache misses, each figure with its unit. The counts are what the
// kernel gives a command on a machine with a PMU; the kinds come from the catalog's encodings,
// as pmcount's session sets them. And --stats' lines in -x: sum, min, max, avg, each in its
// place.
#include <gtest/gtest.h>

#include <sstream>

#include "perf_metric.h"
#include "printer.h"

namespace pmcount {
namespace {

std::vector<std::string> Lines(const std::string &text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::vector<std::string> Fields(const std::string &line) {
  std::vector<std::string> fields;
  std::string field;
  std::istringstream in(line);
  while (std::getline(in, field, ',')) fields.push_back(field);
  if (!line.empty() && line.back() == ',') fields.push_back("");
  return fields;
}

EventInfo Event(const std::string &name, const std::string &encoding) {
  EventInfo event;
  event.name = name;
  event.kind = PerfKindOf(encoding);
  if (event.kind == PerfKind::kClock) event.unit = "ns";
  return event;
}

// 2 ms of task time over 4 ms: 5,000,000 cycles (2.5 GHz), 7,500,000 instructions (1.5 per
// cycle), 1,000,000 branches of which 12,340 missed (1.234 %), 400,000 cache references of
// which 13,000 missed (3.25 %).
Report Hardware() {
  Report report;
  report.command = {"./work"};
  report.mode = "user";
  report.events = {Event("task-clock", "perf::PERF_COUNT_SW_TASK_CLOCK"),
                   Event("cycles", "perf::PERF_COUNT_HW_CPU_CYCLES:u"),
                   Event("instructions", "perf::INSTRUCTIONS:u"),
                   Event("branches", "perf::PERF_COUNT_HW_BRANCH_INSTRUCTIONS"),
                   Event("branch-misses", "perf::BRANCH-MISSES"),
                   Event("cache-references", "perf::PERF_COUNT_HW_CACHE_REFERENCES"),
                   Event("cache-misses", "perf::CACHE-MISSES:u")};
  report.metric_lines = false;
  return report;
}

Snapshot HardwareCounts() {
  Snapshot snapshot;
  snapshot.span_ns = 4000000;
  Row row;
  for (double value : {2000000.0, 5000000.0, 7500000.0, 1000000.0, 12340.0, 400000.0, 13000.0}) {
    Cell cell;
    cell.value = value;
    cell.enabled_ns = cell.running_ns = 2000000;
    row.cells.push_back(cell);
  }
  snapshot.rows = {row};
  return snapshot;
}

TEST(PmcountPerfMetric, TheKindsComeFromTheEncodings) {
  const Report report = Hardware();
  const PerfKind expected[] = {PerfKind::kClock,        PerfKind::kCycles,
                               PerfKind::kInstructions, PerfKind::kBranches,
                               PerfKind::kBranchMisses, PerfKind::kCacheReferences,
                               PerfKind::kCacheMisses};
  for (size_t e = 0; e < report.events.size(); ++e) {
    EXPECT_EQ(report.events[e].kind, expected[e]) << report.events[e].name;
  }
}

TEST(PmcountPerfMetric, EachHardwareFigureWithItsUnitInTheCsv) {
  const std::vector<std::string> lines =
      Lines(MakeCsvPrinter(",")->Final(Hardware(), HardwareCounts()));
  ASSERT_EQ(lines.size(), 7u);
  // value, unit, event, run time, percent running, metric value, metric unit
  const std::vector<std::vector<std::string>> expected = {
      {"2.00", "msec", "task-clock", "2000000", "100.00", "0.500", "CPUs utilized"},
      {"5000000", "", "cycles", "2000000", "100.00", "2.500", "GHz"},
      {"7500000", "", "instructions", "2000000", "100.00", "1.50", "insn per cycle"},
      {"1000000", "", "branches", "2000000", "100.00", "500.000", "M/sec"},
      {"12340", "", "branch-misses", "2000000", "100.00", "1.23", "of all branches"},
      {"400000", "", "cache-references", "2000000", "100.00", "200.000", "M/sec"},
      {"13000", "", "cache-misses", "2000000", "100.00", "3.250", "of all cache refs"},
  };
  for (size_t i = 0; i < expected.size(); ++i) EXPECT_EQ(Fields(lines[i]), expected[i]) << i;
}

TEST(PmcountPerfMetric, EachHardwareFigureWithItsUnitInThePerfJson) {
  const std::vector<std::string> lines =
      Lines(MakePerfJsonPrinter()->Final(Hardware(), HardwareCounts()));
  ASSERT_EQ(lines.size(), 7u);
  const char *const expected[] = {
      "\"metric-value\" : 0.500000, \"metric-unit\" : \"CPUs utilized\"}",
      "\"metric-value\" : 2.500000, \"metric-unit\" : \"GHz\"}",
      "\"metric-value\" : 1.500000, \"metric-unit\" : \"insn per cycle\"}",
      "\"metric-value\" : 500.000000, \"metric-unit\" : \"M/sec\"}",
      "\"metric-value\" : 1.234000, \"metric-unit\" : \"of all branches\"}",
      "\"metric-value\" : 200.000000, \"metric-unit\" : \"M/sec\"}",
      "\"metric-value\" : 3.250000, \"metric-unit\" : \"of all cache refs\"}",
  };
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string tail = expected[i];
    ASSERT_GE(lines[i].size(), tail.size()) << lines[i];
    EXPECT_EQ(lines[i].substr(lines[i].size() - tail.size()), tail) << lines[i];
  }
}

// A ratio's base not counted (or 0): no figure, as perf leaves the fields empty.
TEST(PmcountPerfMetric, NoFigureWithoutItsBase) {
  Report report = Hardware();
  Snapshot snapshot = HardwareCounts();
  snapshot.rows[0].cells[1].state = CellState::kNotCounted;  // cycles
  snapshot.rows[0].cells[3].value = 0;                       // branches
  const Row &row = snapshot.rows[0];
  EXPECT_FALSE(PerfMetricOf(report, row, 2, snapshot.span_ns).shown) << "IPC without cycles";
  EXPECT_FALSE(PerfMetricOf(report, row, 4, snapshot.span_ns).shown) << "no branches";
  EXPECT_TRUE(PerfMetricOf(report, row, 6, snapshot.span_ns).shown) << "cache refs counted";
}

// --stats across CPUs: a block of sum lines, then min, then max, then avg, each event's value
// in its own block.
TEST(PmcountPerfMetric, CsvStatsLinesEachInTheirPlace) {
  Report report;
  report.command = {"./work"};
  report.mode = "user+kernel";
  report.events = {Event("task-clock", "perf::PERF_COUNT_SW_TASK_CLOCK"),
                   Event("page-faults", "perf::PERF_COUNT_SW_PAGE_FAULTS")};
  report.system_wide = true;
  report.stats = true;
  report.metric_lines = false;
  Snapshot snapshot;
  snapshot.span_ns = 1000000000;
  Row row;
  for (double value : {9000000.0, 90.0}) {
    Cell cell;
    cell.value = value;
    cell.enabled_ns = cell.running_ns = 1000000000;
    row.cells.push_back(cell);
  }
  snapshot.rows = {row};
  Stat clock, faults;
  clock.valid = faults.valid = true;
  clock.sum = 9000000, clock.min = 1000000, clock.max = 5000000, clock.avg = 3000000;
  faults.sum = 90, faults.min = 10, faults.max = 50, faults.avg = 30;
  snapshot.stats = {clock, faults};
  const std::vector<std::string> lines = Lines(MakeCsvPrinter(",")->Final(report, snapshot));
  ASSERT_EQ(lines.size(), 2u + 8u);
  const std::vector<std::vector<std::string>> expected = {
      {"sum", "9.00", "msec", "task-clock", "", "", "", ""},
      {"sum", "90", "", "page-faults", "", "", "", ""},
      {"min", "1.00", "msec", "task-clock", "", "", "", ""},
      {"min", "10", "", "page-faults", "", "", "", ""},
      {"max", "5.00", "msec", "task-clock", "", "", "", ""},
      {"max", "50", "", "page-faults", "", "", "", ""},
      {"avg", "3.00", "msec", "task-clock", "", "", "", ""},
      {"avg", "30", "", "page-faults", "", "", "", ""},
  };
  for (size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(Fields(lines[2 + i]), expected[i]) << lines[2 + i];
  }
}

}  // namespace
}  // namespace pmcount
