// SPDX-License-Identifier: MIT
// From samples to rows: CPUs summed into cores and sockets, <not supported> and <not counted>,
// interval deltas, cross-CPU statistics, and the mean and spread of repeated runs.
#include "count_rows.h"

#include <gtest/gtest.h>
#include <math.h>

#include <algorithm>

#include "pmcount_samples.h"

namespace pmcount {
namespace {

Sample Make(uint64_t a, uint64_t b, uint64_t enabled, uint64_t running, int rc = 0) {
  return MakeSample({a, b}, enabled, running, rc);
}

// Two sockets, two cores each, two CPUs per core: CPU n is core n/2, socket n/4.
std::vector<CpuPlace> Places() {
  std::vector<CpuPlace> places;
  for (int cpu = 0; cpu < 8; ++cpu) places.push_back({cpu, cpu / 2, cpu / 4});
  return places;
}

std::vector<Sample> Samples() {
  std::vector<Sample> samples;
  for (uint64_t cpu = 0; cpu < 8; ++cpu) samples.push_back(Make(cpu + 1, 10 * (cpu + 1), 100, 100));
  return samples;
}

TEST(PmcountAggregation, SumsCpusIntoCoresSocketsAndTotal) {
  const std::vector<int> counters = {0, 1};
  std::vector<Row> cores = BuildRows(Samples(), Places(), Aggregation::kPerCore, counters);
  ASSERT_EQ(cores.size(), 4u);
  EXPECT_EQ(cores[1].label, "S0-C1");
  EXPECT_EQ(cores[1].cpus, 2);
  EXPECT_EQ(cores[1].cells[0].value, 3 + 4);
  EXPECT_EQ(cores[1].cells[1].value, 30 + 40);
  EXPECT_EQ(cores[1].cells[0].enabled_ns, 200u);
  std::vector<Row> sockets = BuildRows(Samples(), Places(), Aggregation::kPerSocket, counters);
  ASSERT_EQ(sockets.size(), 2u);
  EXPECT_EQ(sockets[1].label, "S1");
  EXPECT_EQ(sockets[1].cells[0].value, 5 + 6 + 7 + 8);
  std::vector<Row> cpus = BuildRows(Samples(), Places(), Aggregation::kPerCpu, counters);
  ASSERT_EQ(cpus.size(), 8u);
  EXPECT_EQ(cpus[7].label, "CPU7");
  EXPECT_EQ(cpus[7].cpu, 7);
  std::vector<Row> total = BuildRows(Samples(), Places(), Aggregation::kTotal, counters);
  ASSERT_EQ(total.size(), 1u);
  EXPECT_EQ(total[0].cells[0].value, 36);
  EXPECT_EQ(total[0].cpus, 8);
}

TEST(PmcountAggregation, UnknownTopologyFallsBackToCpus) {
  std::vector<CpuPlace> places = {{0, -1, -1}, {1, -1, -1}};
  std::vector<Sample> samples = {Make(1, 0, 1, 1), Make(2, 0, 1, 1)};
  std::vector<Row> rows = BuildRows(samples, places, Aggregation::kPerCore, {0});
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[1].label, "CPU1");
}

TEST(PmcountAggregation, NotSupportedAndNotCounted) {
  // Event 1 has no counter: not supported. A failed read, or an event that never ran, has no
  // count: not counted (which is not the same as a count of 0).
  std::vector<Row> rows = BuildRows({Make(5, 0, 10, 10)}, {}, Aggregation::kTotal, {0, -1});
  EXPECT_EQ(rows[0].cells[0].state, CellState::kCounted);
  EXPECT_EQ(rows[0].cells[1].state, CellState::kNotSupported);
  rows = BuildRows({Make(5, 0, 10, 0)}, {}, Aggregation::kTotal, {0});
  EXPECT_EQ(rows[0].cells[0].state, CellState::kNotCounted);
  rows = BuildRows({Make(5, 0, 10, 10, Pmapi_NotSchedulable)}, {}, Aggregation::kTotal, {0});
  EXPECT_EQ(rows[0].cells[0].state, CellState::kNotCounted);
  rows = BuildRows({Make(5, 0, 10, 4, Pmapi_Multiplexed)}, {}, Aggregation::kTotal, {0});
  EXPECT_EQ(rows[0].cells[0].state, CellState::kCounted);  // partial, with its share
  EXPECT_EQ(rows[0].cells[0].value, 5);
  // A sum is counted if any CPU counted.
  std::vector<CpuPlace> places = {{0, 0, 0}, {1, 0, 0}};
  rows = BuildRows({Make(5, 0, 10, 0), Make(7, 0, 10, 10)}, places, Aggregation::kTotal, {0});
  EXPECT_EQ(rows[0].cells[0].state, CellState::kCounted);
  EXPECT_EQ(rows[0].cells[0].value, 7);
}

TEST(PmcountAggregation, IntervalDeltas) {
  Sample delta = Difference(Make(15, 30, 200, 150), Make(10, 10, 100, 100));
  EXPECT_EQ(delta.values[0], 5u);
  EXPECT_EQ(delta.values[1], 20u);
  EXPECT_EQ(delta.enabled_ns, 100u);
  EXPECT_EQ(delta.running_ns, 50u);
  delta = Difference(Make(1, 1, 1, 1), Make(5, 5, 5, 5));  // never negative
  EXPECT_EQ(delta.values[0], 0u);
}

// A session's sample: one value per event, each with its own times (its events are not one
// group), so one event that never ran is <not counted> beside others that counted.
Sample SessionSample(std::vector<uint64_t> values, std::vector<uint64_t> enabled,
                     std::vector<uint64_t> running) {
  Sample sample;
  sample.values = std::move(values);
  sample.enabled_of = std::move(enabled);
  sample.running_of = std::move(running);
  for (size_t e = 0; e < sample.enabled_of.size() && e < sample.running_of.size(); ++e) {
    sample.enabled_ns = std::max(sample.enabled_ns, sample.enabled_of[e]);
    sample.running_ns = std::max(sample.running_ns, sample.running_of[e]);
  }
  return sample;
}

TEST(PmcountAggregation, SessionSamplesCarryEachEventsOwnTimes) {
  // Ten events, past one program's 8 counters; event 3 never ran, event 9 ran half the time.
  std::vector<uint64_t> values, enabled(10, 1000), running(10, 1000);
  for (uint64_t e = 0; e < 10; ++e) values.push_back(100 + e);
  running[3] = 0;
  running[9] = 500;
  std::vector<int> index_of_event;
  for (int e = 0; e < 10; ++e) index_of_event.push_back(e);
  const std::vector<Row> rows =
      BuildRows({SessionSample(values, enabled, running)}, {}, Aggregation::kTotal, index_of_event);
  ASSERT_EQ(rows.size(), 1u);
  ASSERT_EQ(rows[0].cells.size(), 10u);
  EXPECT_EQ(rows[0].cells[8].value, 108);  // past counter 7: read, not dropped
  EXPECT_EQ(rows[0].cells[3].state, CellState::kNotCounted);
  EXPECT_EQ(rows[0].cells[9].running_ns, 500u);
  EXPECT_EQ(rows[0].cells[9].enabled_ns, 1000u);
  EXPECT_EQ(rows[0].cells[0].running_ns, 1000u);

  // An interval: each event's count and times minus its own.
  const Sample delta = Difference(SessionSample(values, {1500, 1500}, {1500, 1200}),
                                  SessionSample({50, 60}, {1000, 1000}, {1000, 1000}));
  EXPECT_EQ(delta.values[0], 50u);
  EXPECT_EQ(delta.values[1], 41u);
  EXPECT_EQ(delta.values[9], 109u);  // nothing before it to subtract
  EXPECT_EQ(delta.enabled_of[0], 500u);
  EXPECT_EQ(delta.running_of[1], 200u);
}

TEST(PmcountAggregation, CrossCpuStatistics) {
  std::vector<Row> cpus = BuildRows(Samples(), Places(), Aggregation::kPerCpu, {0, -1});
  std::vector<Stat> stats = CrossCpuStats(cpus, 2);
  ASSERT_TRUE(stats[0].valid);
  EXPECT_EQ(stats[0].sum, 36);
  EXPECT_EQ(stats[0].min, 1);
  EXPECT_EQ(stats[0].max, 8);
  EXPECT_EQ(stats[0].avg, 4.5);
  EXPECT_FALSE(stats[1].valid);
}

TEST(PmcountAggregation, MeanAndRelativeStandardErrorOfTheMean) {
  double mean = 0, spread = 0;
  MeanAndSpread({10, 20, 30}, &mean, &spread);
  EXPECT_DOUBLE_EQ(mean, 20);
  // Sample standard deviation 10, standard error 10/sqrt(3), relative to 20.
  EXPECT_NEAR(spread, 100.0 * (10.0 / sqrt(3.0)) / 20.0, 1e-9);
  MeanAndSpread({7}, &mean, &spread);
  EXPECT_EQ(spread, 0);
  MeanAndSpread({5, 5, 5}, &mean, &spread);
  EXPECT_EQ(spread, 0);
}

TEST(PmcountAggregation, MeanOfRuns) {
  std::vector<std::vector<Row>> runs;
  for (uint64_t v : {100u, 102u, 98u}) {
    runs.push_back(BuildRows({Make(v, 7, 10, 10)}, {}, Aggregation::kTotal, {0, 1, -1}));
  }
  std::vector<Row> mean = MeanOfRuns(runs);
  ASSERT_EQ(mean.size(), 1u);
  EXPECT_DOUBLE_EQ(mean[0].cells[0].value, 100);
  EXPECT_GT(mean[0].cells[0].spread_pct, 0);
  EXPECT_EQ(mean[0].cells[1].spread_pct, 0);  // the same every run
  EXPECT_EQ(mean[0].cells[2].state, CellState::kNotSupported);
}

}  // namespace
}  // namespace pmcount
