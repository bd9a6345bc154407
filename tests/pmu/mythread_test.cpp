// The first-party thread family on the emulated PMU: a user-mode count of a loop is exact.
#include <gtest/gtest.h>

#include <cstdio>

#include "guest_support.h"

using namespace pmu_guest;

namespace {

class MyThreadHardware : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(Initialize()); }
  void TearDown() override { pm_delete_program_mythread(); }
};

// Two loop lengths, the difference of their counts: whatever the calls around the loop cost is
// the same in both and cancels. The first runs of a path cost more (lazy binding): warm up.
TEST_F(MyThreadHardware, UserModeInstructionsOfALoopAreExact) {
  pm_prog_t prog = Program({EventId("PM_INST_CMPL"), EventId("PM_CYC")}, PM_USER);
  ASSERT_EQ(pm_set_program_mythread(&prog), 0) << pm_strerror("pm_set_program_mythread", 0);
  LeastMyThreadCount(1000, 0, 2);  // warm-up
  const uint64_t short_loop = 1000, long_loop = 201000;
  const long long short_count = LeastMyThreadCount(short_loop, 0);
  const long long long_count = LeastMyThreadCount(long_loop, 0);
  ASSERT_GT(short_count, 0);
  RecordProperty("short_loop_instructions", std::to_string(short_count));
  RecordProperty("long_loop_instructions", std::to_string(long_count));
  std::printf("loop instructions: %llu iterations %lld, %llu iterations %lld\n",
              static_cast<unsigned long long>(short_loop), short_count,
              static_cast<unsigned long long>(long_loop), long_count);
  EXPECT_EQ(long_count - short_count,
            kInstructionsPerIteration * static_cast<long long>(long_loop - short_loop));
}

}  // namespace
