// SPDX-License-Identifier: MIT
// pmlist and pmcount in the guest, as a user runs them.
#include <gtest/gtest.h>
#include <stdio.h>
#include <stdlib.h>

#include <sstream>
#include <string>
#include <vector>

#include "guest_support.h"

using namespace pmu_guest;

namespace {

TEST(ToolsHardware, PmlistNamesTheProcessorAndListsHardwareEventsVerified) {
  const std::string out = RunCommand("pmlist");
  EXPECT_NE(out.find(kPower ? "processor: POWER" : "processor: ARM "), std::string::npos)
      << out.substr(0, 300);
  for (const char *event : {"PM_CYC", "PM_INST_CMPL"}) {
    const size_t at = out.find(std::string(" ") + event + " ");
    ASSERT_NE(at, std::string::npos) << event;
    const std::string line = out.substr(at, out.find('\n', at) - at);
    EXPECT_NE(line.find("verified"), std::string::npos) << line;
    EXPECT_EQ(line.find("unverified"), std::string::npos) << line;
  }
}

// `true` runs the same instructions whatever the event is called: every count is one number,
// and IPC is 1.000 under -icount on ARM (POWER's emulation counts a few more cycles around).
TEST(ToolsHardware, PmcountCountsACommand) {
  const std::string out = RunCommand("pmcount -e PM_INST_CMPL,PM_CYC true");
  printf("%s", out.c_str());
  EXPECT_NE(out.find("PM_INST_CMPL"), std::string::npos) << out;
  EXPECT_NE(out.find(kPower ? "     IPC" : "1.000     IPC"), std::string::npos) << out;
  EXPECT_EQ(out.find("not supported"), std::string::npos) << out;
}

TEST(ToolsHardware, PmcountMarksAnUnimplementedEventNotSupported) {
  if (kPower) GTEST_SKIP() << "the emulated POWER PMU opens every event code (others read 0)";
  const std::string out = RunCommand("pmcount -e PM_INST_CMPL,PM_BR_MPRED_CMPL true");
  EXPECT_NE(out.find("<not supported>     PM_BR_MPRED_CMPL"), std::string::npos) << out;
}

// pmcount -x , lines split at commas.
std::vector<std::vector<std::string>> CsvLines(const std::string &out) {
  std::vector<std::vector<std::string>> lines;
  std::istringstream text(out);
  std::string line;
  while (std::getline(text, line)) {
    std::vector<std::string> fields;
    std::istringstream split(line);
    std::string field;
    while (std::getline(split, field, ',')) {
      // perf's -x pads the interval's time column (and "summary") to 16 characters.
      const size_t first = field.find_first_not_of(' ');
      fields.push_back(first == std::string::npos ? "" : field.substr(first));
    }
    lines.push_back(fields);
  }
  return lines;
}

// pmu_loop runs 2N user-mode instructions (N on POWER), plus its start and exit (the loader's
// work).
constexpr long long kLoopIterations = 25000000;
constexpr long long kLoopInstructions = kInstructionsPerIteration * kLoopIterations;

// The exact user-mode instructions of `pmu_loop N`, as a plain pmcount counts them.
long long ExactInstructions() {
  const std::string out =
      RunCommand("pmcount -x , -u -e PM_INST_CMPL pmu_loop " + std::to_string(kLoopIterations));
  for (const auto &fields : CsvLines(out)) {
    if (fields.size() > 2 && fields[2] == "PM_INST_CMPL") return atoll(fields[0].c_str());
  }
  ADD_FAILURE() << out;
  return -1;
}

// -I: the intervals' deltas add up to the total exactly. No test is timed: how many ticks fall
// within the run is the emulator's business, so only "a regular one and the final one".
TEST(ToolsHardware, PmcountIntervalsAddUpToTheTotal) {
  OnLastCpu pinned;
  const std::string out = RunCommand("pmcount -I 10 --summary -x , -u -e PM_INST_CMPL pmu_loop " +
                                     std::to_string(kLoopIterations));
  long long sum = 0, total = -1;
  int intervals = 0;
  for (const auto &fields : CsvLines(out)) {
    if (fields.size() < 4 || fields[3] != "PM_INST_CMPL") continue;
    if (fields[0] == "summary") {
      total = atoll(fields[1].c_str());
    } else if (fields[1] != "<not counted>") {
      sum += atoll(fields[1].c_str());
      ++intervals;
    }
  }
  printf("pmcount -I 10: %d intervals summing to %lld; total %lld (loop %lld)\n", intervals, sum,
         total, kLoopInstructions);
  EXPECT_GE(intervals, 2) << out;
  EXPECT_EQ(sum, total) << out;
  EXPECT_GE(total, kLoopInstructions) << out;
  // On POWER the emulated PMU also counts the kernel's exec and exit of the command: 547,608
  // more than the loop on POWER9.
  EXPECT_LE(total, kLoopInstructions + (kPower ? kLoopInstructions / 20 : kLoopIterations / 50))
      << out;
}

// -T: two sets rotate every 5 ms; each set's estimate of the instructions is within 2% of the
// exact total. Everything stays on one CPU, the rotator too (docs/hardware.md, the _mx note).
TEST(ToolsHardware, PmcountMultiplexedEstimatesAreWithinTwoPercent) {
  OnLastCpu pinned;
  const long long exact = ExactInstructions();
  const std::string out =
      RunCommand("pmcount -T 5 -x , -u -e PM_INST_CMPL,PM_CYC -e PM_INST_CMPL,PM_CYC pmu_loop " +
                 std::to_string(kLoopIterations));
  int estimates = 0;
  // perf's -x fields: the estimate, unit, event, running time, percent running, metric, unit;
  // the sets' lines come in set order.
  for (const auto &fields : CsvLines(out)) {
    if (fields.size() < 5 || fields[2] != "PM_INST_CMPL") continue;
    const long long estimate = atoll(fields[0].c_str());
    const double error = 100.0 * static_cast<double>(estimate - exact) / static_cast<double>(exact);
    ++estimates;
    printf("pmcount -T 5: set %d estimates %lld (%s%% of the time) for %lld: %+.2f%%\n", estimates,
           estimate, fields[4].c_str(), exact, error);
    EXPECT_LT(error < 0 ? -error : error, 2.0) << out;
  }
  EXPECT_EQ(estimates, 2) << out;
}

}  // namespace
