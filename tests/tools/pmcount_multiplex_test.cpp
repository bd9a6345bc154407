// SPDX-License-Identifier: MIT
// pmcount -T's pure parts: the command line's sets and slice, raw samples of several sets into
// rows of estimates (raw x total / the set's time), and what every printer says about them.
#include <gtest/gtest.h>

#include "multiplex_rows.h"
#include "options.h"
#include "pmcount_samples.h"
#include "printer.h"

namespace pmcount {
namespace {

TEST(PmcountMultiplexOptions, EachEventListAndGroupIsASetInOrder) {
  Options o;
  ASSERT_EQ(ParseOptions({"-T", "20", "-e", "a,b", "-g", "pm_basic", "-e", "c", "--", "true"}, &o),
            "");
  EXPECT_EQ(o.multiplex_ms, 20);
  ASSERT_EQ(o.sets.size(), 3u);
  EXPECT_FALSE(o.sets[0].is_group);
  EXPECT_EQ(o.sets[0].text, "a,b");
  EXPECT_TRUE(o.sets[1].is_group);
  EXPECT_EQ(o.sets[1].text, "pm_basic");
  EXPECT_EQ(o.sets[2].text, "c");
  ASSERT_EQ(ParseOptions({"--multiplex=5", "-g", "x", "-g", "y", "true"}, &o), "");
  EXPECT_EQ(o.multiplex_ms, 5);
  EXPECT_EQ(o.sets.size(), 2u);
}

TEST(PmcountMultiplexOptions, RefusesWhatCannotBeMultiplexed) {
  Options o;
  EXPECT_NE(ParseOptions({"-T", "10", "-e", "a", "true"}, &o).find("at least two"),
            std::string::npos);
  EXPECT_NE(ParseOptions({"-T", "10", "true"}, &o).find("at least two"), std::string::npos);
  EXPECT_NE(ParseOptions({"-T", "0", "-e", "a", "-e", "b", "true"}, &o).find("bad slice '0'"),
            std::string::npos);
  EXPECT_NE(ParseOptions({"-T", "-3", "-e", "a", "-e", "b", "true"}, &o).find("bad slice '-3'"),
            std::string::npos);
  EXPECT_NE(ParseOptions({"-T", "1.5", "-e", "a", "-e", "b", "true"}, &o).find("bad slice"),
            std::string::npos);
  std::vector<std::string> many = {"-T", "10"};
  for (int i = 0; i <= kMaxMultiplexSets; ++i) many.insert(many.end(), {"-e", "a"});
  many.push_back("true");
  EXPECT_NE(ParseOptions(many, &o).find("65 event sets given to -T; at most 64"),
            std::string::npos);
  EXPECT_NE(
      ParseOptions({"-T", "10", "-r", "2", "-e", "a", "-e", "b", "true"}, &o).find("-r and -T"),
      std::string::npos);
  // Without -T the old rules stand.
  EXPECT_NE(ParseOptions({"-g", "x", "-g", "y", "true"}, &o).find("only one -g group"),
            std::string::npos);
  EXPECT_NE(ParseOptions({"-e", "a", "-g", "y", "true"}, &o).find("-e and -g cannot be combined"),
            std::string::npos);
}

Sample SetSample(uint64_t a, uint64_t b, uint64_t running, int rc = 0) {
  return MakeSample({a, b}, running, running, rc);
}

TEST(PmcountMultiplexRows, EstimatesAreRawTimesTotalOverTheSetsTime) {
  // A command: set 0 = {x} counted 30 in 300 ns, set 1 = {x, y} counted 10 and 7 in 100 ns.
  std::vector<Sample> samples = {SetSample(30, 0, 300), SetSample(10, 7, 100)};
  std::vector<Row> rows = BuildMultiplexRows(samples, {}, Aggregation::kTotal, {{0}, {0, 1}});
  ASSERT_EQ(rows.size(), 1u);
  ASSERT_EQ(rows[0].cells.size(), 3u);
  ScaleMultiplexed({0, 1, 1}, &rows);
  const std::vector<Cell> &c = rows[0].cells;
  EXPECT_EQ(c[0].raw, 30);
  EXPECT_EQ(c[0].value, 40);  // 30 x 400 / 300
  EXPECT_EQ(c[1].raw, 10);
  EXPECT_EQ(c[1].value, 40);  // 10 x 400 / 100
  EXPECT_EQ(c[2].value, 28);
  EXPECT_EQ(c[0].enabled_ns, 400u);
  EXPECT_DOUBLE_EQ(FractionRunning(c[0]), 0.75);
  EXPECT_DOUBLE_EQ(FractionRunning(c[1]) + FractionRunning(c[0]), 1.0);
}

TEST(PmcountMultiplexRows, ASetThatNeverRanIsNotCountedAndTheOthersCarryTheTime) {
  std::vector<Sample> samples = {SetSample(5, 0, 50), SetSample(0, 0, 0)};
  std::vector<Row> rows = BuildMultiplexRows(samples, {}, Aggregation::kTotal, {{0}, {0}});
  ScaleMultiplexed({0, 1}, &rows);
  EXPECT_EQ(rows[0].cells[0].state, CellState::kCounted);
  EXPECT_EQ(rows[0].cells[0].value, 5);
  EXPECT_DOUBLE_EQ(FractionRunning(rows[0].cells[0]), 1.0);
  EXPECT_EQ(rows[0].cells[1].state, CellState::kNotCounted);
}

TEST(PmcountMultiplexRows, SetMajorSamplesSplitPerCpu) {
  // Two CPUs, two sets: samples[set * 2 + cpu].
  std::vector<CpuPlace> places = {{0, 0, 0}, {1, 1, 0}};
  std::vector<Sample> samples = {SetSample(1, 0, 10), SetSample(2, 0, 20), SetSample(3, 0, 30),
                                 SetSample(4, 0, 20)};
  std::vector<Row> rows = BuildMultiplexRows(samples, places, Aggregation::kPerCpu, {{0}, {0}});
  ScaleMultiplexed({0, 1}, &rows);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].cells[0].raw, 1);
  EXPECT_EQ(rows[0].cells[1].raw, 3);
  EXPECT_EQ(rows[0].cells[1].value, 4);  // 3 x 40 / 30
  EXPECT_EQ(rows[1].cells[1].value, 8);  // 4 x 40 / 20
  std::vector<Row> total = BuildMultiplexRows(samples, places, Aggregation::kTotal, {{0}, {0}});
  ScaleMultiplexed({0, 1}, &total);
  EXPECT_EQ(total[0].cells[0].raw, 3);
  EXPECT_EQ(total[0].cells[0].value, 3.0 * 80 / 30);
  // A read that failed: no row claims a count.
  samples[2].rc = -1;
  samples[3].rc = -1;
  std::vector<Row> failed = BuildMultiplexRows(samples, places, Aggregation::kTotal, {{0}, {0}});
  EXPECT_EQ(failed[0].cells[1].state, CellState::kNotCounted);
}

Report MxReport() {
  Report report;
  report.command = {"work"};
  report.mode = "user+kernel";
  report.multiplex_ms = 20;
  report.sets = 2;
  report.rounds = 7;
  report.events = {{"x", 1, "", "", 1}, {"x", 1, "", "", 2}};  // sets numbered from 1
  return report;
}

Snapshot MxSnapshot() {
  std::vector<Sample> samples = {SetSample(30, 0, 300), SetSample(10, 0, 100)};
  Snapshot snapshot;
  snapshot.rows = BuildMultiplexRows(samples, {}, Aggregation::kTotal, {{0}, {0}});
  ScaleMultiplexed({0, 1}, &snapshot.rows);
  return snapshot;
}

TEST(PmcountMultiplexPrinters, EveryFormatShowsSetEstimateRawAndShare) {
  const Report report = MxReport();
  const Snapshot snapshot = MxSnapshot();
  const std::string human = MakeHumanPrinter()->Final(report, snapshot);
  EXPECT_NE(human.find("2 event sets multiplexed at 20 ms (7 complete rounds)"), std::string::npos)
      << human;
  EXPECT_NE(human.find("[set 1]  (75.00%)  scaled up from 30 counted"), std::string::npos) << human;
  EXPECT_NE(human.find("[set 2]  (25.00%)  scaled up from 10 counted"), std::string::npos) << human;
  const std::string csv = MakeCsvPrinter(",")->Final(report, snapshot);
  // perf's 7 fields: the estimate, the set's time and share (the raw count is in --json).
  EXPECT_NE(csv.find("40,,x,300,75.00,,\n"), std::string::npos) << csv;
  EXPECT_NE(csv.find("40,,x,100,25.00,,\n"), std::string::npos) << csv;
  const std::string json = MakeJsonPrinter()->Final(report, snapshot);
  EXPECT_NE(json.find("\"multiplex\":{\"slice_ms\":20,\"sets\":2,\"rounds\":7}"), std::string::npos)
      << json;
  EXPECT_NE(json.find("\"set\":2,\"raw_value\":10,\"fraction\":0.25"), std::string::npos) << json;
  EXPECT_NE(json.find("\"value\":40,"), std::string::npos) << json;
}

}  // namespace
}  // namespace pmcount
