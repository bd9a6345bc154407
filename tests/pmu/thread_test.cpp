// SPDX-License-Identifier: MIT
// The third-party thread family on the emulated PMU: a child process runs the loop on request,
// and the parent's pm_*_thread calls count it exactly (the difference of two loop lengths).
#include <gtest/gtest.h>

#include <memory>

#include "guest_support.h"
#include "loop_server.h"

using namespace pmu_guest;

namespace {

// The child that runs the loop, for the plain functions a Family and LeastCounts take.
const LoopServer *g_child = nullptr;
pid_t Child() { return g_child->pid(); }
void LoopInChild(uint64_t n) { g_child->Run(n); }

class ThreadHardware : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(Initialize());
    child_ = std::make_unique<LoopServer>(Loop);
    ASSERT_TRUE(child_->ok());
    g_child = child_.get();
  }
  void TearDown() override {
    if (child_ && child_->ok()) pm_delete_program_thread(Child(), Child());
    child_.reset();
    g_child = nullptr;
  }
  std::unique_ptr<LoopServer> child_;
};

TEST_F(ThreadHardware, CountsAnotherProcesssLoopExactly) {
  pm_prog_t prog = MakeProgram({EventId("PM_INST_CMPL"), EventId("PM_CYC")}, PM_USER);
  ASSERT_EQ(pm_set_program_thread(Child(), Child(), &prog), 0)
      << pm_strerror("pm_set_program_thread", 0);
  const Family family{[] { return pm_reset_data_thread(Child(), Child()); },
                      [] { return pm_start_thread(Child(), Child()); },
                      [] { return pm_stop_thread(Child(), Child()); },
                      [](pm_data_t *data) { return pm_get_data_thread(Child(), Child(), data); }};
  const LoopRuns runs = RunShortAndLong(family, LoopInChild);
  PrintDifference("loop instructions (_thread, user)", runs, kLoopDifference);
  EXPECT_NEAR(runs.Difference(0), kLoopDifference, KernelSlack(kLoopDifference)) << "PM_INST_CMPL";
  EXPECT_NEAR(runs.Difference(1), kLoopDifference, KernelSlack(kLoopDifference)) << "PM_CYC";
}

}  // namespace
