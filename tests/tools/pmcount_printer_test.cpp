// SPDX-License-Identifier: MIT
// The outputs of one report: perf stat's CSV fields and JSON, the human table, pmcount's JSON.
#include <gtest/gtest.h>

#include <sstream>

#include "printer.h"

namespace pmcount {
namespace {

Report TwoEvents() {
  Report report;
  report.command = {"./work", "1000"};
  report.mode = "user+kernel";
  report.events = {{"syscalls:sys_enter_getppid", 2000284, "", ""},
                   {"cycles", 1, "", "the kernel has no hardware PMU for it"}};
  report.metrics = {{"calls_per_second", "g"}};
  report.has_times = true;
  report.elapsed_ns = 2e6;
  return report;
}

Snapshot OneRow(double value) {
  Snapshot snapshot;
  Row row;
  Cell counted;
  counted.value = value;
  counted.enabled_ns = 2000;
  counted.running_ns = 2000;
  Cell missing;
  missing.state = CellState::kNotSupported;
  row.cells = {counted, missing};
  row.metrics = {500000};
  snapshot.rows = {row};
  return snapshot;
}

std::vector<std::string> Lines(const std::string &text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::vector<std::string> Fields(const std::string &line, char sep) {
  std::vector<std::string> fields;
  std::string field;
  std::istringstream in(line);
  while (std::getline(in, field, sep)) fields.push_back(field);
  if (!line.empty() && line.back() == sep) fields.push_back("");
  return fields;
}

TEST(PmcountPrinters, CsvFollowsPerfStatFieldOrder) {
  std::unique_ptr<Printer> csv = MakeCsvPrinter(";");
  std::vector<std::string> lines = Lines(csv->Final(TwoEvents(), OneRow(1000)));
  ASSERT_EQ(lines.size(), 3u);
  // value, unit, event, run time, percent running, metric value, metric unit
  EXPECT_EQ(Fields(lines[0], ';'),
            (std::vector<std::string>{"1000", "", "syscalls:sys_enter_getppid", "2000", "100.00",
                                      "", ""}));
  EXPECT_EQ(Fields(lines[1], ';'),
            (std::vector<std::string>{"<not supported>", "", "cycles", "0", "100.00", "", ""}));
  EXPECT_EQ(Fields(lines[2], ';'),
            (std::vector<std::string>{"", "", "", "", "", "500000.000000", "calls_per_second"}));
}

// A set that never ran has run 0% of the time: perf prints "<not counted>,,EVENT,0,0.00,,",
// and -j's pcnt-running 0.00 (<not supported> keeps 100.00, as perf's does).
TEST(PmcountPrinters, NotCountedRowsHaveRunNoneOfTheTime) {
  Snapshot snapshot = OneRow(1000);
  snapshot.rows[0].cells[0] = Cell();
  snapshot.rows[0].cells[0].state = CellState::kNotCounted;
  const std::vector<std::string> csv = Lines(MakeCsvPrinter(",")->Final(TwoEvents(), snapshot));
  ASSERT_GE(csv.size(), 2u);
  EXPECT_EQ(csv[0], "<not counted>,,syscalls:sys_enter_getppid,0,0.00,,");
  EXPECT_EQ(csv[1], "<not supported>,,cycles,0,100.00,,");
  const std::vector<std::string> json = Lines(MakePerfJsonPrinter()->Final(TwoEvents(), snapshot));
  ASSERT_GE(json.size(), 1u);
  EXPECT_NE(json[0].find("\"counter-value\" : \"<not counted>\""), std::string::npos) << json[0];
  EXPECT_NE(json[0].find("\"pcnt-running\" : 0.00,"), std::string::npos) << json[0];
  EXPECT_EQ(PercentRunning(snapshot.rows[0].cells[0]), 0.0);
}

TEST(PmcountPrinters, CsvIntervalsAsPerfAndTheTotalsOnlyWithSummary) {
  std::unique_ptr<Printer> csv = MakeCsvPrinter(",");
  Snapshot interval = OneRow(5);
  interval.interval = true;
  interval.since_start_ns = 1500000000;
  std::vector<std::string> lines = Lines(csv->Interval(TwoEvents(), interval));
  EXPECT_EQ(Fields(lines[0], ',')[0], "     1.500000000");  // perf's %6lu.%09lu
  EXPECT_EQ(csv->Final(TwoEvents(), OneRow(5)), "");        // perf prints none without --summary
  Report summary = TwoEvents();
  summary.summary = true;
  lines = Lines(csv->Final(summary, OneRow(5)));
  EXPECT_EQ(Fields(lines[0], ',')[0], "         summary");
}

// task-clock, page-faults and a tracepoint as perf stat shows them: the clock in msec with
// CPUs utilized, the others as a rate per second of task time with perf's K step.
Report Software() {
  Report report;
  report.command = {"./work"};
  report.mode = "user+kernel";
  report.events = {{"task-clock", 18, "ns", ""},
                   {"page-faults", 20, "", ""},
                   {"syscalls:sys_enter_getppid", 237, "", ""}};
  report.events[0].kind = PerfKind::kClock;
  report.metrics = {{"CPUs_utilized", "pm_sw_basic"}};
  report.metric_lines = false;  // no -g
  return report;
}

Row SoftwareRow(const std::string &label, int cpu, double clock_ns) {
  Row row;
  row.label = label;
  row.cpu = cpu;
  for (double value : {clock_ns, 48.0, 1500.0}) {
    Cell cell;
    cell.value = value;
    cell.enabled_ns = cell.running_ns = 615461;
    row.cells.push_back(cell);
  }
  row.metrics = {0.5};
  return row;
}

TEST(PmcountPrinters, CsvCarriesPerfsMetricOnEachEventLine) {
  Snapshot snapshot;
  snapshot.span_ns = 1230922;
  snapshot.rows = {SoftwareRow("", -1, 615461)};
  const std::vector<std::string> lines = Lines(MakeCsvPrinter(",")->Final(Software(), snapshot));
  ASSERT_EQ(lines.size(), 3u);  // no line of its own for the group's metric without -g
  EXPECT_EQ(lines[0], "0.62,msec,task-clock,615461,100.00,0.500,CPUs utilized");
  EXPECT_EQ(lines[1], "48,,page-faults,615461,100.00,77.990,K/sec");
  EXPECT_EQ(lines[2], "1500,,syscalls:sys_enter_getppid,615461,100.00,2.437,M/sec");
}

TEST(PmcountPrinters, CsvPerCpuGoesEventByEventAsPerfDoes) {
  Report report = Software();
  report.aggregation = Aggregation::kPerCpu;
  Snapshot snapshot;
  snapshot.span_ns = 1230922;
  snapshot.rows = {SoftwareRow("CPU0", 0, 615461), SoftwareRow("CPU1", 1, 615461)};
  const std::vector<std::string> lines = Lines(MakeCsvPrinter(",")->Final(report, snapshot));
  ASSERT_EQ(lines.size(), 6u);
  EXPECT_EQ(lines[0].substr(0, 21), "CPU0,0.62,msec,task-c");
  EXPECT_EQ(lines[1].substr(0, 21), "CPU1,0.62,msec,task-c");
  EXPECT_EQ(lines[2].substr(0, 19), "CPU0,48,,page-fault");
}

TEST(PmcountPrinters, PerfJsonHasPerfsKeysInPerfsOrder) {
  Snapshot snapshot;
  snapshot.span_ns = 1230922;
  snapshot.rows = {SoftwareRow("", -1, 615461)};
  const std::vector<std::string> lines = Lines(MakePerfJsonPrinter()->Final(Software(), snapshot));
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0],
            "{\"counter-value\" : \"0.615461\", \"unit\" : \"msec\", \"event\" : \"task-clock\", "
            "\"event-runtime\" : 615461, \"pcnt-running\" : 100.00, \"metric-value\" : 0.500000, "
            "\"metric-unit\" : \"CPUs utilized\"}");
  EXPECT_EQ(lines[1],
            "{\"counter-value\" : \"48.000000\", \"unit\" : \"\", \"event\" : \"page-faults\", "
            "\"event-runtime\" : 615461, \"pcnt-running\" : 100.00, \"metric-value\" : 77.990319, "
            "\"metric-unit\" : \"K/sec\"}");
}

TEST(PmcountPrinters, HumanTableAlignsAndSeparatesThousands) {
  std::unique_ptr<Printer> human = MakeHumanPrinter();
  const std::string text = human->Final(TwoEvents(), OneRow(1234567));
  EXPECT_NE(text.find(" Counts for ./work 1000\n user+kernel mode\n"), std::string::npos);
  EXPECT_NE(text.find("1,234,567"), std::string::npos);
  EXPECT_NE(text.find("<not supported>"), std::string::npos);
  EXPECT_NE(text.find("the kernel has no hardware PMU for it"), std::string::npos);
  EXPECT_NE(text.find("500,000.0"), std::string::npos);
  // The event names start in one column.
  size_t column = std::string::npos;
  for (const std::string &line : Lines(text)) {
    const size_t at = line.find("syscalls:"), at2 = line.find("cycles");
    const size_t here = at != std::string::npos ? at : at2;
    if (here == std::string::npos) continue;
    if (column == std::string::npos) column = here;
    EXPECT_EQ(here, column) << line;
  }
  EXPECT_NE(column, std::string::npos);
}

TEST(PmcountPrinters, HumanIntervalsKeepTimeAndCpuApart) {
  Report report = TwoEvents();
  report.system_wide = true;
  report.aggregation = Aggregation::kPerCpu;
  Snapshot snapshot = OneRow(7);
  snapshot.interval = true;
  snapshot.since_start_ns = 100000000;
  snapshot.rows[0].label = "CPU1";
  const std::string text = MakeHumanPrinter()->Interval(report, snapshot);
  EXPECT_EQ(text.find("         0.100000000 CPU1 "), 0u) << text;
}

TEST(PmcountPrinters, HumanShowsTheRunningShareOnlyWhenMultiplexed) {
  Snapshot snapshot = OneRow(10);
  EXPECT_EQ(MakeHumanPrinter()->Final(TwoEvents(), snapshot).find("%)"), std::string::npos);
  snapshot.rows[0].cells[0].running_ns = 500;
  EXPECT_NE(MakeHumanPrinter()->Final(TwoEvents(), snapshot).find("(25.00%)"), std::string::npos);
}

// Ranks sharing a terminal: every line of the table, blank ones too, says whose it is.
TEST(PmcountPrinters, HumanLinesSayTheirMpiRank) {
  Report report = TwoEvents();
  report.rank = "3";
  const std::vector<std::string> lines = Lines(MakeHumanPrinter()->Final(report, OneRow(10)));
  ASSERT_FALSE(lines.empty());
  for (const std::string &line : lines) EXPECT_EQ(line.substr(0, 8), "[rank 3]") << line;
  EXPECT_NE(MakeJsonPrinter()->Final(report, OneRow(10)).find("{\"rank\":\"3\",\"command\""),
            std::string::npos);
}

TEST(PmcountPrinters, HeadingQuotesArgumentsAsAShellWould) {
  Report report = TwoEvents();
  report.command = {"sh", "-c", "a | b", "it's"};
  EXPECT_EQ(CommandLine(report), "sh -c 'a | b' 'it'\\''s'");
}

TEST(PmcountPrinters, JsonHasNullsNotStringsForMissingValues) {
  const std::string text = MakeJsonPrinter()->Final(TwoEvents(), OneRow(1000));
  ASSERT_EQ(Lines(text).size(), 1u);  // one object per line
  EXPECT_NE(text.find("\"event\":\"syscalls:sys_enter_getppid\",\"id\":2000284,\"value\":1000"),
            std::string::npos);
  EXPECT_NE(text.find("\"event\":\"cycles\",\"id\":1,\"value\":null"), std::string::npos);
  EXPECT_NE(text.find("\"state\":\"not supported\",\"reason\":\"the kernel has no hardware PMU"),
            std::string::npos);
  EXPECT_NE(text.find("\"command\":[\"./work\",\"1000\"]"), std::string::npos);
}

}  // namespace
}  // namespace pmcount
