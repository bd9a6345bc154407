// SPDX-License-Identifier: MIT
// The timebase calls: raw ticks are nanoseconds of CLOCK_MONOTONIC, and
// time_base_to_time turns them into seconds + nanoseconds without rounding.
#include <stdint.h>
#include <time.h>

#include <gtest/gtest.h>

#include "api/timebase.h"
#include "pmapi.h"

namespace {

uint64_t Ticks(const timebasestruct_t &t) {
  return (static_cast<uint64_t>(t.tb_high) << 32) | t.tb_low;
}

timebasestruct_t Raw(uint64_t ns) {
  timebasestruct_t t;
  pmapi::TicksToTimebase(ns, &t);
  return t;
}

using Reader = int (*)(timebasestruct_t *, size_t);

class ReadTest : public ::testing::TestWithParam<Reader> {};

TEST_P(ReadTest, ReturnsRawMonotonicNanoseconds) {
  timebasestruct_t t = {0, 0, 0};
  const uint64_t before = pmapi::MonotonicNanos();
  EXPECT_EQ(GetParam()(&t, TIMEBASE_SZ), RTC_POWER_PC);
  const uint64_t after = pmapi::MonotonicNanos();
  EXPECT_EQ(t.flag, RTC_POWER_PC);
  EXPECT_GE(Ticks(t), before);
  EXPECT_LE(Ticks(t), after);
}

TEST_P(ReadTest, NullIsAnError) { EXPECT_EQ(GetParam()(nullptr, TIMEBASE_SZ), -1); }

TEST_P(ReadTest, NeverGoesBackwards) {
  timebasestruct_t t;
  GetParam()(&t, TIMEBASE_SZ);
  uint64_t last = Ticks(t);
  for (int i = 0; i < 100000; ++i) {
    GetParam()(&t, TIMEBASE_SZ);
    ASSERT_GE(Ticks(t), last) << "iteration " << i;
    last = Ticks(t);
  }
}

INSTANTIATE_TEST_SUITE_P(AllReaders, ReadTest,
                         ::testing::Values(&read_real_time, &read_wall_time, &mread_real_time));

TEST(TicksToTimebase, SplitsIntoHighAndLowWords) {
  const timebasestruct_t t = Raw((uint64_t{0x12345678} << 32) | 0x9abcdef0u);
  EXPECT_EQ(t.flag, RTC_POWER_PC);
  EXPECT_EQ(t.tb_high, 0x12345678u);
  EXPECT_EQ(t.tb_low, 0x9abcdef0u);
}

TEST(TimeBaseToTime, ConvertsExactly) {
  // 5,000,000,123 ns is above 2^32, so tb_high is non-zero going in.
  timebasestruct_t t = Raw(5000000123u);
  ASSERT_NE(t.tb_high, 0u);
  EXPECT_EQ(time_base_to_time(&t, TIMEBASE_SZ), 0);
  EXPECT_EQ(t.flag, RTC_POWER);
  EXPECT_EQ(t.tb_high, 5u);
  EXPECT_EQ(t.tb_low, 123u);
}

TEST(TimeBaseToTime, ConvertsAtSecondBoundaries) {
  struct Case {
    uint64_t ns;
    unsigned int sec, nsec;
  } cases[] = {
      {0, 0, 0},
      {999999999u, 0, 999999999u},
      {1000000000u, 1, 0},
      {uint64_t{1} << 32, 4, 294967296u},
      {(uint64_t{1} << 40) + 7, 1099, 511627783u},
      // The largest representable: UINT32_MAX seconds and 999999999 ns.
      {uint64_t{UINT32_MAX} * 1000000000u + 999999999u, UINT32_MAX, 999999999u},
  };
  for (const Case &c : cases) {
    timebasestruct_t t = Raw(c.ns);
    EXPECT_EQ(time_base_to_time(&t, TIMEBASE_SZ), 0) << c.ns;
    EXPECT_EQ(t.flag, RTC_POWER) << c.ns;
    EXPECT_EQ(t.tb_high, c.sec) << c.ns;
    EXPECT_EQ(t.tb_low, c.nsec) << c.ns;
  }
}

TEST(TimeBaseToTime, RefusesSecondsThatDoNotFitAndLeavesValueAlone) {
  const uint64_t too_big = (uint64_t{UINT32_MAX} + 1) * 1000000000u;
  timebasestruct_t t = Raw(too_big);
  EXPECT_EQ(time_base_to_time(&t, TIMEBASE_SZ), -1);
  EXPECT_EQ(t.flag, RTC_POWER_PC);
  EXPECT_EQ(Ticks(t), too_big);
}

TEST(TimeBaseToTime, RealTimePassesThroughUnchanged) {
  timebasestruct_t t = {RTC_POWER, 7, 999999999u};
  EXPECT_EQ(time_base_to_time(&t, TIMEBASE_SZ), 0);
  EXPECT_EQ(t.flag, RTC_POWER);
  EXPECT_EQ(t.tb_high, 7u);
  EXPECT_EQ(t.tb_low, 999999999u);
}

TEST(TimeBaseToTime, UnknownFlagIsAnErrorAndLeavesValueAlone) {
  for (int flag : {0, 3, -1, 42}) {
    timebasestruct_t t = {flag, 1, 2};
    EXPECT_EQ(time_base_to_time(&t, TIMEBASE_SZ), -1) << flag;
    EXPECT_EQ(t.flag, flag);
    EXPECT_EQ(t.tb_high, 1u);
    EXPECT_EQ(t.tb_low, 2u);
  }
}

TEST(TimeBaseToTime, NullIsAnError) { EXPECT_EQ(time_base_to_time(nullptr, TIMEBASE_SZ), -1); }

// The PAPI idiom: read, convert, compute microseconds.  A 20 ms sleep must
// show up as at least 20 ms between two converted readings.
TEST(TimeBaseToTime, ElapsedTimeMatchesASleep) {
  timebasestruct_t a, b;
  ASSERT_EQ(read_real_time(&a, TIMEBASE_SZ), RTC_POWER_PC);
  struct timespec nap = {0, 20000000};
  nanosleep(&nap, nullptr);
  ASSERT_EQ(read_real_time(&b, TIMEBASE_SZ), RTC_POWER_PC);
  ASSERT_EQ(time_base_to_time(&a, TIMEBASE_SZ), 0);
  ASSERT_EQ(time_base_to_time(&b, TIMEBASE_SZ), 0);
  const int64_t usec_a = int64_t{a.tb_high} * 1000000 + a.tb_low / 1000;
  const int64_t usec_b = int64_t{b.tb_high} * 1000000 + b.tb_low / 1000;
  EXPECT_GE(usec_b - usec_a, 20000);
  EXPECT_LT(usec_b - usec_a, 20000000);  // and not wildly more: same unit
}

}  // namespace
