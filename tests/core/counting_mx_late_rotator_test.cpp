// SPDX-License-Identifier: MIT
// A rotator that wakes late (a loaded machine) moves the rotation on by every slice that ended
// meanwhile, so that the rounds keep pace with time: Multiplexer::SwitchDue, driven by hand with
// a chosen `now`.
#include <gtest/gtest.h>
#include <stdlib.h>

#include "core/multiplexer.h"
#include "core/registry.h"
#include "support/counting.h"
#include "support/hand_driven_mx.h"

using namespace pmapi_test;

namespace {

class LateRotator : public HandDrivenMx {
 protected:
  void AfterInitialize() override {
    ClearSets(sets_, 3);
    sets_[0][0] = EventId("cpu-migrations");
    sets_[1][0] = EventId("page-faults");
    sets_[2][0] = EventId("context-switches");
  }
  pm_events_prog_t sets_[3];
};

TEST_F(LateRotator, EverySliceThatEndedCounts) {
  pm_prog_mx_t prog = MxProgram(sets_, 3, PM_USER | PM_COUNT);
  ASSERT_EQ(pm_set_program_mythread_mx(&prog), 0) << pm_strerror("set", 0);
  const uint64_t first = Mx()->NextSwitch();
  ASSERT_NE(first, UINT64_MAX);
  ASSERT_TRUE(Mx()->SwitchDue(first - 1).ok());
  EXPECT_EQ(Mx()->NextSwitch(), first) << "not due yet";
  // Woken 25 ms after the first slice ended: that slice and two more ended, a whole round.
  ASSERT_TRUE(Mx()->SwitchDue(first + 25 * kMs).ok());
  EXPECT_EQ(Mx()->NextSwitch(), first + 30 * kMs);
  EXPECT_EQ(Mx()->rounds(), 1);
  // Then on time: one slice.
  ASSERT_TRUE(Mx()->SwitchDue(first + 30 * kMs).ok());
  EXPECT_EQ(Mx()->NextSwitch(), first + 40 * kMs);
  EXPECT_EQ(Mx()->rounds(), 1);
  // Late by four slices from set 1: sets 2, 0 (round 2), 1, 2.
  ASSERT_TRUE(Mx()->SwitchDue(first + 75 * kMs).ok());
  EXPECT_EQ(Mx()->NextSwitch(), first + 80 * kMs);
  EXPECT_EQ(Mx()->rounds(), 2);
  pm_data_mx_t data = {};
  ASSERT_EQ(pm_get_data_mythread_mx(&data), 0);
  EXPECT_EQ(data.nb_mx_round, 2);
  free(data.accu_set);
}

}  // namespace
