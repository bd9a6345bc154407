// SPDX-License-Identifier: MIT
// -I's last, partial interval: printed unless an earlier tick already read the final counts
// (the race of issue 26; tools.final_interval makes it happen in the real binary).
#include "final_interval.h"

#include <gtest/gtest.h>

#include "pmcount_samples.h"

namespace pmcount {
namespace {

Sample Delta(uint64_t value, uint64_t enabled, uint64_t running, int rc = 0) {
  return MakeSample({value}, enabled, running, rc);
}

TEST(FinalInterval, AnEmptyTailAfterPrintedIntervalsIsLeftOut) {
  EXPECT_FALSE(PrintFinalInterval({Delta(0, 0, 0)}, true));
  EXPECT_FALSE(PrintFinalInterval({Delta(0, 0, 0), Delta(0, 0, 0)}, true)) << "every CPU";
  EXPECT_FALSE(PrintFinalInterval({Delta(0, 0, 0, Pmapi_Multiplexed)}, true));
}

TEST(FinalInterval, ATailThatCountedIsPrinted) {
  EXPECT_TRUE(PrintFinalInterval({Delta(5, 1000, 1000)}, true));
  EXPECT_TRUE(PrintFinalInterval({Delta(0, 1000, 1000)}, true)) << "ran, counted nothing";
  EXPECT_TRUE(PrintFinalInterval({Delta(0, 1000, 0)}, true)) << "enabled, never scheduled";
  EXPECT_TRUE(PrintFinalInterval({Delta(0, 0, 0), Delta(0, 7, 7)}, true)) << "one CPU ran";
}

TEST(FinalInterval, TheOnlyIntervalIsAlwaysPrinted) {
  EXPECT_TRUE(PrintFinalInterval({Delta(0, 0, 0)}, false));
}

TEST(FinalInterval, AFailedReadIsPrintedToSaySo) {
  EXPECT_TRUE(PrintFinalInterval({Delta(0, 0, 0, -1)}, true));
}

}  // namespace
}  // namespace pmcount
