// Counter pressure: a program of more hardware events than the PMU has counters is refused when
// it is set, as AIX does, not at the first read; one that fits is accepted and counts.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "guest_support.h"

using namespace pmu_guest;

namespace {

class PressureHardware : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(Initialize());
    ASSERT_EQ(CountersAvailable(), 7) << "the emulated PMUv3: 6 counters and the cycle counter";
    const std::string table = PfmTable();
    ASSERT_FALSE(table.empty());
    // Four cycles events (one fits the cycle counter) and four instructions events.
    const std::string names[] = {"PM_CYC",
                                 "PM_INST_CMPL",
                                 table + "::CPU_CYCLES",
                                 table + "::INST_RETIRED",
                                 "armv8_pmuv3/cpu_cycles",
                                 "armv8_pmuv3/inst_retired",
                                 "perf::CYCLES",
                                 "perf::INSTRUCTIONS"};
    for (int i = 0; i < 8; ++i) ids_[i] = EventId(names[i]);
  }
  void TearDown() override { pm_delete_program_mythread(); }
  pm_prog_t Of(int events) const {
    pm_prog_t prog = Program({}, PM_USER);
    for (int i = 0; i < events; ++i) prog.events[i] = ids_[i];
    return prog;
  }
  int ids_[8] = {};
};

TEST_F(PressureHardware, MoreEventsThanCountersAreRefusedWhenSet) {
  pm_prog_t prog = Of(8);
  const int rc = pm_set_program_mythread(&prog);
  const std::string message = pm_strerror("pm_set_program_mythread", rc);
  printf("8 hardware events: %s\n", message.c_str());
  ASSERT_EQ(rc, Pmapi_NotSchedulable) << message;
  EXPECT_NE(message.find("8 events do not fit the counters of thread"), std::string::npos)
      << message;
  EXPECT_NE(message.find("more hardware events than counters"), std::string::npos) << message;
  // Nothing is left set: a read says so, and a program that fits is accepted afterwards.
  pm_data_t data;
  EXPECT_NE(pm_get_data_mythread(&data), 0);
  prog = Of(7);
  EXPECT_EQ(pm_set_program_mythread(&prog), 0) << pm_strerror("pm_set_program_mythread", 0);
}

TEST_F(PressureHardware, AProgramFillingEveryCounterCountsExactly) {
  pm_prog_t prog = Of(7);
  ASSERT_EQ(pm_set_program_mythread(&prog), 0) << pm_strerror("pm_set_program_mythread", 0);
  LeastCounts(MyThread(), Loop, 1000, 2);
  const Counts short_run = LeastCounts(MyThread(), Loop, 1000);
  const Counts long_run = LeastCounts(MyThread(), Loop, 201000);
  for (int counter = 0; counter < 7; ++counter) {
    EXPECT_EQ(long_run[counter] - short_run[counter], 400000) << "counter " << counter;
  }
}

TEST_F(PressureHardware, TheGroupFamilyRefusesItToo) {
  pm_prog_t prog = Of(8);
  const int rc = pm_set_program_mygroup(&prog);
  EXPECT_EQ(rc, Pmapi_NotSchedulable) << pm_strerror("pm_set_program_mygroup", rc);
  pm_delete_program_mygroup();
  prog = Of(8);
  EXPECT_EQ(pm_set_program(&prog), Pmapi_NotSchedulable) << pm_strerror("pm_set_program", 0);
  pm_delete_program();
}

}  // namespace
