// SPDX-License-Identifier: MIT
// hpmcount's and hpmstat's lines from a counting session's samples (src/tools/hpm/set_results.h):
// a session's sample has a value per event, any number of them, summed over the CPUs; and a
// reading whose events took turns on the counters says that its counts are estimates.
#include <gtest/gtest.h>

#include <deque>

#include "set_results.h"

namespace aix {
namespace {

constexpr size_t kEvents = 10;  // past one AIX program's 8 counters

// One set of `kEvents` events, each its own session index, as MakeSessionPlan numbers them.
struct TenEvents {
  std::deque<pmapi::CatalogEvent> entries;
  Prepared prepared;
  Programs programs;
  TenEvents() {
    tools::Selection selection;
    for (size_t e = 0; e < kEvents; ++e) {
      pmapi::CatalogEvent entry;
      entry.short_name = "event" + std::to_string(e);
      entries.push_back(entry);
      tools::SelectedEvent event;
      event.name = entry.short_name;
      event.entry = &entries.back();
      selection.events.push_back(event);
      programs.plan.counter_of_event.push_back(static_cast<int>(e));
      programs.plan.reasons.push_back("");
    }
    prepared.sets.push_back(selection);
  }
};

// A session's sample of one CPU: event e counted e + 1 times, for `running` of `enabled` ns.
tools::Sample CpuSample(uint64_t enabled, uint64_t running) {
  tools::Sample sample;
  sample.values.clear();
  for (size_t e = 0; e < kEvents; ++e) {
    sample.values.push_back(e + 1);
    sample.enabled_of.push_back(enabled);
    sample.running_of.push_back(running);
  }
  sample.enabled_ns = enabled;
  sample.running_ns = running;
  return sample;
}

TEST(HpmSetResults, EverySessionEventIsSummedOverTheCpusPastEight) {
  TenEvents ten;
  const std::vector<tools::Sample> cpus = {CpuSample(1000, 1000), CpuSample(1000, 1000)};
  const std::vector<SetResult> sets = Results(ten.prepared, ten.programs, cpus, 2, 1.0);
  ASSERT_EQ(sets.size(), 1u);
  ASSERT_EQ(sets[0].events.size(), kEvents);
  for (size_t e = 0; e < kEvents; ++e) {
    EXPECT_TRUE(sets[0].events[e].counted) << e;
    EXPECT_EQ(sets[0].events[e].value, 2 * (e + 1)) << e;
  }
}

TEST(HpmSetResults, EstimatesAreNotedOnlyWhenAnEventTookTurns) {
  EXPECT_EQ(EstimatesNote({CpuSample(1000, 1000), CpuSample(2000, 2000)}), "");
  const std::string note = EstimatesNote({CpuSample(1000, 1000), CpuSample(2000, 500)});
  EXPECT_NE(note.find("estimates"), std::string::npos) << note;
  tools::Sample failed = CpuSample(2000, 500);
  failed.rc = Pmapi_NotSchedulable;  // no data: nothing was estimated
  EXPECT_EQ(EstimatesNote({failed}), "");
}

}  // namespace
}  // namespace aix
