// Third-party counting groups and inheritance into child processes on the emulated PMU. A
// target process forks a child that runs the loop and waits for it: the group of the target
// (pm_set_program_group, _pgroup) counts the child's loop exactly, as _mygroup does for a child
// the caller forks itself. Differences of two loop lengths, least of five runs.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <memory>

#include "guest_support.h"

using namespace pmu_guest;

namespace {

constexpr uint64_t kShortLoop = 1000, kLongLoop = 201000;
constexpr long long kExact = kInstructionsPerIteration * (kLongLoop - kShortLoop);

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

pid_t g_target = -1;
int g_request = -1, g_done = -1;  // the parent's ends of the two pipes

// The target: LoopInForkedChild(n) for every n it reads, a byte back after each; 0 ends it.
[[noreturn]] void ServeForkedLoops(int requests, int done) {
  uint64_t n = 0;
  while (read(requests, &n, sizeof n) == static_cast<ssize_t>(sizeof n) && n != 0) {
    LoopInForkedChild(n);
    const char byte = 1;
    if (write(done, &byte, 1) != 1) break;
  }
  _exit(0);
}

void LoopInTargetsChild(uint64_t n) {
  char byte;
  if (write(g_request, &n, sizeof n) != static_cast<ssize_t>(sizeof n) ||
      read(g_done, &byte, 1) != 1) {
    ADD_FAILURE() << "the target stopped answering";
  }
}

void Report(const char *family, const Counts &short_run, const Counts &long_run) {
  printf("inherited into a child (%s, user): %lld and %lld, difference %lld for %lld\n", family,
         short_run[0], long_run[0], long_run[0] - short_run[0], kExact);
}

class ThirdPartyGroupHardware : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(Initialize());
    int requests[2], done[2];
    ASSERT_EQ(pipe(requests), 0);
    ASSERT_EQ(pipe(done), 0);
    // The target and its children run in one order with the caller (guest_support.h): its
    // fork and waitpid otherwise cost a few instructions more or less (seen: 400,005).
    order_ = std::make_unique<InOneOrder>();
    g_target = fork();
    ASSERT_GE(g_target, 0);
    if (g_target == 0) ServeForkedLoops(requests[0], done[1]);
    close(requests[0]);
    close(done[1]);
    g_request = requests[1];
    g_done = done[0];
  }
  void TearDown() override {
    if (g_target <= 0) return;
    pm_delete_program_group(g_target, g_target);
    pm_delete_program_pgroup(g_target, g_target, 0);
    const uint64_t stop = 0;
    if (write(g_request, &stop, sizeof stop) < 0) kill(g_target, SIGKILL);
    close(g_request);
    close(g_done);
    waitpid(g_target, nullptr, 0);
    order_.reset();
  }
  std::unique_ptr<InOneOrder> order_;
};

TEST_F(ThirdPartyGroupHardware, GroupCountsTheTargetsChildExactly) {
  pm_prog_t prog = MakeProgram({EventId("PM_INST_CMPL"), EventId("PM_CYC")}, PM_USER);
  ASSERT_EQ(pm_set_program_group(g_target, g_target, &prog), 0)
      << pm_strerror("pm_set_program_group", 0);
  const Family family{[] { return pm_reset_data_group(g_target, g_target); },
                      [] { return pm_start_group(g_target, g_target); },
                      [] { return pm_stop_group(g_target, g_target); },
                      [](pm_data_t *data) { return pm_get_data_group(g_target, g_target, data); }};
  LeastCounts(family, LoopInTargetsChild, kShortLoop, 2);  // warm-up
  const Counts short_run = LeastCounts(family, LoopInTargetsChild, kShortLoop);
  const Counts long_run = LeastCounts(family, LoopInTargetsChild, kLongLoop);
  Report("_group", short_run, long_run);
  EXPECT_EQ(long_run[0] - short_run[0], kExact) << "PM_INST_CMPL";
  EXPECT_EQ(long_run[1] - short_run[1], kExact) << "PM_CYC";
}

TEST_F(ThirdPartyGroupHardware, PthreadGroupCountsTheTargetsChildExactly) {
  pm_prog_t prog = MakeProgram({EventId("PM_INST_CMPL"), EventId("PM_CYC")}, PM_USER);
  ASSERT_EQ(pm_set_program_pgroup(g_target, g_target, 0, &prog), 0)
      << pm_strerror("pm_set_program_pgroup", 0);
  const Family family{
      [] { return pm_reset_data_pgroup(g_target, g_target, 0); },
      [] { return pm_start_pgroup(g_target, g_target, 0); },
      [] { return pm_stop_pgroup(g_target, g_target, 0); },
      [](pm_data_t *data) { return pm_get_data_pgroup(g_target, g_target, 0, data); }};
  LeastCounts(family, LoopInTargetsChild, kShortLoop, 2);
  const Counts short_run = LeastCounts(family, LoopInTargetsChild, kShortLoop);
  const Counts long_run = LeastCounts(family, LoopInTargetsChild, kLongLoop);
  Report("_pgroup", short_run, long_run);
  EXPECT_EQ(long_run[0] - short_run[0], kExact) << "PM_INST_CMPL";
  EXPECT_EQ(long_run[1] - short_run[1], kExact) << "PM_CYC";
}

// _mythread does not follow fork (the child holds none of its creator's contexts), _mygroup
// does: the same child loop is in one and not in the other.
TEST(InheritHardware, MyGroupCountsAForkedChildAndMyThreadDoesNot) {
  ASSERT_TRUE(Initialize());
  pm_prog_t prog = MakeProgram({EventId("PM_INST_CMPL")}, PM_USER);
  ASSERT_EQ(pm_set_program_mygroup(&prog), 0) << pm_strerror("pm_set_program_mygroup", 0);
  InOneOrder order;  // fork, exit and waitpid in one order: exact (guest_support.h)
  LeastCounts(MyGroup(), LoopInForkedChild, kShortLoop, 2);
  Counts short_run = LeastCounts(MyGroup(), LoopInForkedChild, kShortLoop);
  Counts long_run = LeastCounts(MyGroup(), LoopInForkedChild, kLongLoop);
  Report("_mygroup", short_run, long_run);
  EXPECT_EQ(long_run[0] - short_run[0], kExact);
  ASSERT_EQ(pm_delete_program_mygroup(), 0);

  ASSERT_EQ(pm_set_program_mythread(&prog), 0) << pm_strerror("pm_set_program_mythread", 0);
  LeastCounts(MyThread(), LoopInForkedChild, kShortLoop, 2);
  short_run = LeastCounts(MyThread(), LoopInForkedChild, kShortLoop);
  long_run = LeastCounts(MyThread(), LoopInForkedChild, kLongLoop);
  Report("_mythread", short_run, long_run);
  EXPECT_LT(long_run[0] - short_run[0], kExact / 100) << "the child's loop is not the caller's";
  pm_delete_program_mythread();
}

}  // namespace
