// SPDX-License-Identifier: MIT
// Third-party counting groups and inheritance into child processes on the emulated PMU. A
// target process forks a child that runs the loop and waits for it: the group of the target
// (pm_set_program_group, _pgroup) counts the child's loop exactly, as _mygroup does for a child
// the caller forks itself. Differences of two loop lengths, least of five runs.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <memory>
#include <string>

#include "guest_support.h"
#include "loop_server.h"

using namespace pmu_guest;

namespace {

// Loop(n) in a forked child, waited for: inheritance has to carry the count across fork.
void LoopInForkedChild(uint64_t n) {
  const pid_t child = fork();
  if (child == 0) {
    Loop(n);
    _exit(0);
  }
  int status = 0;
  if (child < 0 || waitpid(child, &status, 0) != child || !WIFEXITED(status)) {
    ADD_FAILURE() << "the forked child did not run";
  }
}

// The target, which runs LoopInForkedChild on request, for the plain functions a Family and
// LeastCounts take.
const LoopServer *g_target = nullptr;
pid_t Target() { return g_target->pid(); }
void LoopInTargetsChild(uint64_t n) { g_target->Run(n); }

void Report(const char *family, const LoopRuns &runs) {
  const std::string what = std::string("inherited into a child (") + family + ", user)";
  PrintDifference(what.c_str(), runs, kLoopDifference);
}

class ThirdPartyGroupHardware : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(Initialize());
    // The target and its children run in one order with the caller (guest_support.h): its
    // fork and waitpid otherwise cost a few instructions more or less (seen: 400,005).
    order_ = std::make_unique<InOneOrder>();
    target_ = std::make_unique<LoopServer>(LoopInForkedChild);
    ASSERT_TRUE(target_->ok());
    g_target = target_.get();
  }
  void TearDown() override {
    if (target_ && target_->ok()) {
      pm_delete_program_group(Target(), Target());
      pm_delete_program_pgroup(Target(), Target(), 0);
    }
    target_.reset();
    g_target = nullptr;
    order_.reset();
  }
  // Both counting families of the target's group count its child's loop exactly.
  static void ExpectExact(const char *name, const Family &family) {
    const LoopRuns runs = RunShortAndLong(family, LoopInTargetsChild);
    Report(name, runs);
    EXPECT_NEAR(runs.Difference(0), kLoopDifference, ForkSlack(kLoopDifference)) << "PM_INST_CMPL";
    EXPECT_NEAR(runs.Difference(1), kLoopDifference, ForkSlack(kLoopDifference)) << "PM_CYC";
  }
  std::unique_ptr<InOneOrder> order_;
  std::unique_ptr<LoopServer> target_;
};

TEST_F(ThirdPartyGroupHardware, GroupCountsTheTargetsChildExactly) {
  pm_prog_t prog = MakeProgram({EventId("PM_INST_CMPL"), EventId("PM_CYC")}, PM_USER);
  ASSERT_EQ(pm_set_program_group(Target(), Target(), &prog), 0)
      << pm_strerror("pm_set_program_group", 0);
  ExpectExact("_group",
              {[] { return pm_reset_data_group(Target(), Target()); },
               [] { return pm_start_group(Target(), Target()); },
               [] { return pm_stop_group(Target(), Target()); },
               [](pm_data_t *data) { return pm_get_data_group(Target(), Target(), data); }});
}

TEST_F(ThirdPartyGroupHardware, PthreadGroupCountsTheTargetsChildExactly) {
  pm_prog_t prog = MakeProgram({EventId("PM_INST_CMPL"), EventId("PM_CYC")}, PM_USER);
  ASSERT_EQ(pm_set_program_pgroup(Target(), Target(), 0, &prog), 0)
      << pm_strerror("pm_set_program_pgroup", 0);
  ExpectExact("_pgroup",
              {[] { return pm_reset_data_pgroup(Target(), Target(), 0); },
               [] { return pm_start_pgroup(Target(), Target(), 0); },
               [] { return pm_stop_pgroup(Target(), Target(), 0); },
               [](pm_data_t *data) { return pm_get_data_pgroup(Target(), Target(), 0, data); }});
}

// _mythread does not follow fork (the child holds none of its creator's contexts), _mygroup
// does: the same child loop is in one and not in the other.
TEST(InheritHardware, MyGroupCountsAForkedChildAndMyThreadDoesNot) {
  ASSERT_TRUE(Initialize());
  pm_prog_t prog = MakeProgram({EventId("PM_INST_CMPL")}, PM_USER);
  ASSERT_EQ(pm_set_program_mygroup(&prog), 0) << pm_strerror("pm_set_program_mygroup", 0);
  InOneOrder order;  // fork, exit and waitpid in one order: exact (guest_support.h)
  LoopRuns runs = RunShortAndLong(MyGroup(), LoopInForkedChild);
  Report("_mygroup", runs);
  EXPECT_NEAR(runs.Difference(0), kLoopDifference, ForkSlack(kLoopDifference));
  ASSERT_EQ(pm_delete_program_mygroup(), 0);

  ASSERT_EQ(pm_set_program_mythread(&prog), 0) << pm_strerror("pm_set_program_mythread", 0);
  runs = RunShortAndLong(MyThread(), LoopInForkedChild);
  Report("_mythread", runs);
  EXPECT_LT(runs.Difference(0), kLoopDifference / 100) << "the child's loop is not the caller's";
  pm_delete_program_mythread();
}

}  // namespace
