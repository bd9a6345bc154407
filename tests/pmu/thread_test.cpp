// The third-party thread family on the emulated PMU: a child process runs the loop on request,
// and the parent's pm_*_thread calls count it exactly (the difference of two loop lengths).
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>

#include "guest_support.h"

using namespace pmu_guest;

namespace {

constexpr uint64_t kShortLoop = 1000, kLongLoop = 201000;

pid_t g_child = -1;
int g_request = -1, g_done = -1;  // the parent's ends of the two pipes

// The child: Loop(n) for every n it reads, a byte back after each; 0 ends it.
void ServeLoops(int requests, int done) {
  uint64_t n = 0;
  while (read(requests, &n, sizeof n) == static_cast<ssize_t>(sizeof n) && n != 0) {
    Loop(n);
    const char byte = 1;
    if (write(done, &byte, 1) != 1) break;
  }
  _exit(0);
}

void LoopInChild(uint64_t n) {
  char byte;
  if (write(g_request, &n, sizeof n) != static_cast<ssize_t>(sizeof n) ||
      read(g_done, &byte, 1) != 1) {
    ADD_FAILURE() << "the child stopped answering";
  }
}

class ThreadHardware : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(Initialize());
    int requests[2], done[2];
    ASSERT_EQ(pipe(requests), 0);
    ASSERT_EQ(pipe(done), 0);
    g_child = fork();
    ASSERT_GE(g_child, 0);
    if (g_child == 0) ServeLoops(requests[0], done[1]);
    close(requests[0]);
    close(done[1]);
    g_request = requests[1];
    g_done = done[0];
  }
  void TearDown() override {
    if (g_child <= 0) return;
    pm_delete_program_thread(g_child, g_child);
    const uint64_t stop = 0;
    if (write(g_request, &stop, sizeof stop) < 0) kill(g_child, SIGKILL);
    close(g_request);
    close(g_done);
    waitpid(g_child, nullptr, 0);
  }
};

TEST_F(ThreadHardware, CountsAnotherProcesssLoopExactly) {
  pm_prog_t prog = MakeProgram({EventId("PM_INST_CMPL"), EventId("PM_CYC")}, PM_USER);
  ASSERT_EQ(pm_set_program_thread(g_child, g_child, &prog), 0)
      << pm_strerror("pm_set_program_thread", 0);
  const Family family{[] { return pm_reset_data_thread(g_child, g_child); },
                      [] { return pm_start_thread(g_child, g_child); },
                      [] { return pm_stop_thread(g_child, g_child); },
                      [](pm_data_t *data) { return pm_get_data_thread(g_child, g_child, data); }};
  LeastCounts(family, LoopInChild, kShortLoop, 2);  // warm-up
  const Counts short_run = LeastCounts(family, LoopInChild, kShortLoop);
  const Counts long_run = LeastCounts(family, LoopInChild, kLongLoop);
  const long long exact = kInstructionsPerIteration * (kLongLoop - kShortLoop);
  printf("loop instructions (_thread, user): %lld and %lld, difference %lld for %lld\n",
         short_run[0], long_run[0], long_run[0] - short_run[0], exact);
  EXPECT_EQ(long_run[0] - short_run[0], exact) << "PM_INST_CMPL";
  EXPECT_EQ(long_run[1] - short_run[1], exact) << "PM_CYC";
}

}  // namespace
