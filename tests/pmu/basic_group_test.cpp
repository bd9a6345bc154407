// SPDX-License-Identifier: MIT
// The pm_basic event group (groups/generic.grp) on the emulated PMU: programmed by group id,
// it counts the loop, and its metrics come out as -icount makes them: one cycle an instruction.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "guest_support.h"
#include "pmapi_metrics.h"

using namespace pmu_guest;

namespace {

TEST(BasicGroupHardware, CountsTheLoopAndGivesAnIpcOfOne) {
  pm_info2_t info;
  pm_groups_info_t groups = {};
  ASSERT_EQ(pm_initialize(PM_VERIFIED | PM_UNVERIFIED | PM_CAVEAT | PM_GET_GROUPS, &info, &groups,
                          PM_CURRENT),
            0);
  int basic = -1;
  for (int g = 0; g < groups.maxgroups; ++g) {
    if (std::string(groups.event_groups[g].short_name) == "pm_basic") {
      basic = groups.event_groups[g].group_id;
    }
  }
  ASSERT_GE(basic, 0) << "pm_basic is not listed";
  pm_group_metrics_t metrics;
  ASSERT_EQ(pm_get_group_metrics(basic, &metrics), 0);
  ASSERT_EQ(metrics.members, 2);

  pm_prog_t prog = MakeProgram({basic}, PM_USER);
  prog.mode.b.is_group = 1;
  ASSERT_EQ(pm_set_program_mythread(&prog), 0) << pm_strerror("pm_set_program_mythread", 0);
  const LoopRuns runs = RunShortAndLong(MyThread(), Loop);
  EXPECT_EQ(runs.Difference(0), kLoopDifference) << "PM_CYC";
  EXPECT_EQ(runs.Difference(1), kLoopDifference) << "PM_INST_CMPL";

  // The metrics of what the longer loop added: a cycle an instruction on every emulated PMU (the
  // calls around the loop cost POWER's emulation more cycles than instructions).
  double values[8] = {};
  ASSERT_LE(metrics.maxmetrics, 8);
  const long long added[2] = {runs.Difference(0), runs.Difference(1)};
  ASSERT_EQ(
      pm_evaluate_group_metrics(basic, added, metrics.members, 0.001, values, metrics.maxmetrics),
      0);
  for (int m = 0; m < metrics.maxmetrics; ++m) {
    const std::string name = metrics.metrics[m].name;
    printf("pm_basic %s = %.6f\n", name.c_str(), values[m]);
    if (name == "IPC" || name == "CPI") {
      EXPECT_DOUBLE_EQ(values[m], 1.0) << name;
    }
  }
  pm_delete_program_mythread();
}

}  // namespace
