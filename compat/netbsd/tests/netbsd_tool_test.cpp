// SPDX-License-Identifier: MIT
// The pmc tool: runs a command that makes an exact number of getppid calls
// and must print that number for user and for kernel mode.
#include <gtest/gtest.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>

#include "pmc_test_helpers.h"

namespace {

struct ToolRun {
  std::string output;
  int status = -1;  // exit status, or -1
};

ToolRun RunTool(const std::string &arguments) {
  ToolRun run;
  std::string command = std::string(PMC_TOOL_PATH) + " " + arguments + " 2>&1";
  FILE *pipe = popen(command.c_str(), "r");
  if (!pipe) return run;
  char buffer[4096];
  size_t n;
  while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0) run.output.append(buffer, n);
  int status = pclose(pipe);
  run.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return run;
}

class NetbsdTool : public ::testing::Test {
 protected:
  void SetUp() override { pmc_test::EnsureTracefs(); }
};

TEST_F(NetbsdTool, CountsTheCommandByName) {
  ToolRun run =
      RunTool(std::string("-c ") + pmc_test::kGetppid + " " + GETPPID_CALLS_PATH + " 4321");
  EXPECT_EQ(run.status, 0) << run.output;
  // Tracepoints fire whatever the privilege level, so both counts are exact.
  EXPECT_EQ(run.output, std::string(pmc_test::kGetppid) + ": user 4321 kernel 4321\n");
}

TEST_F(NetbsdTool, CountsTheCommandByNumericId) {
  const std::string id = std::to_string(pmc_test::EventId(pmc_test::kGetppid));
  ToolRun run = RunTool("-c " + id + " " + GETPPID_CALLS_PATH + " 17");
  EXPECT_EQ(run.status, 0) << run.output;
  EXPECT_EQ(run.output, id + ": user 17 kernel 17\n");
}

TEST_F(NetbsdTool, PageFaultsSplitByMode) {
  // dd reads 4 MiB from /dev/zero into a fresh buffer: the kernel writes those 1,024 pages
  // (read(2) faults them in kernel mode), the program never touches them itself. So the kernel
  // count holds at least the 1,024 and the user count (the program's own start-up) does not.
  if (access("/bin/dd", X_OK) != 0) GTEST_SKIP() << "no /bin/dd";
  const long pages = (4 << 20) / sysconf(_SC_PAGESIZE);
  ToolRun run =
      RunTool("-c page-faults /bin/dd if=/dev/zero of=/dev/null bs=4M count=1 status=none");
  ASSERT_EQ(run.status, 0) << run.output;
  unsigned long long user = 0, kernel = 0;
  ASSERT_EQ(sscanf(run.output.c_str(), "page-faults: user %llu kernel %llu", &user, &kernel), 2)
      << run.output;
  EXPECT_GE(kernel, static_cast<unsigned long long>(pages)) << "read(2) filled the buffer";
  EXPECT_LE(kernel, static_cast<unsigned long long>(pages) + 64) << "and little else";
  EXPECT_GT(user, 0u) << "loading and running a program faults in user pages";
  EXPECT_LT(user, static_cast<unsigned long long>(pages)) << "the buffer's faults are not user's";
}

TEST_F(NetbsdTool, ListsEventsWithTheirIds) {
  ToolRun run = RunTool("list getppid");
  EXPECT_EQ(run.status, 0) << run.output;
  const std::string line =
      std::to_string(pmc_test::EventId(pmc_test::kGetppid)) + "  " + pmc_test::kGetppid + "\n";
  EXPECT_NE(run.output.find("Supported performance counter events:\n"), std::string::npos);
  EXPECT_NE(run.output.find(line), std::string::npos) << run.output;
}

TEST_F(NetbsdTool, ExitStatusIsTheCommands) {
  EXPECT_EQ(RunTool("-c task-clock /bin/sh -c 'exit 3'").status, 3);
}

// A usage error exits 2, as in every libpmapi tool (docs/tools.md): an unknown event, a
// missing or extra argument, an id past pmc_evid_t.
TEST_F(NetbsdTool, Failures) {
  EXPECT_EQ(RunTool("-c no-such-event /bin/true").status, 2);
  EXPECT_EQ(RunTool("-c 99999999999999999999999 /bin/true").status, 2) << "id out of range";
  EXPECT_EQ(RunTool("-c task-clock /no/such/program").status, 7);
  EXPECT_EQ(RunTool("").status, 2) << "no arguments";
  EXPECT_EQ(RunTool("-c task-clock").status, 2) << "no command";
  EXPECT_EQ(RunTool("list a b").status, 2) << "too many arguments";
}

}  // namespace
