// pmlist and pmcount in the guest, as a user runs them.
#include <gtest/gtest.h>
#include <stdio.h>

#include <string>

#include "guest_support.h"

using namespace pmu_guest;

namespace {

std::string RunCommand(const std::string &command) {
  std::string output;
  FILE *pipe = popen((command + " 2>&1").c_str(), "r");
  if (!pipe) return output;
  char buffer[4096];
  size_t n;
  while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0) output.append(buffer, n);
  pclose(pipe);
  return output;
}

TEST(ToolsHardware, PmlistNamesTheProcessorAndListsHardwareEventsVerified) {
  const std::string out = RunCommand("pmlist");
  EXPECT_NE(out.find("processor: ARM "), std::string::npos) << out.substr(0, 300);
  for (const char *event : {"PM_CYC", "PM_INST_CMPL"}) {
    const size_t at = out.find(std::string(" ") + event + " ");
    ASSERT_NE(at, std::string::npos) << event;
    const std::string line = out.substr(at, out.find('\n', at) - at);
    EXPECT_NE(line.find("verified"), std::string::npos) << line;
    EXPECT_EQ(line.find("unverified"), std::string::npos) << line;
  }
}

// `true` runs the same instructions whatever the event is called: every count is one number,
// and IPC is 1.000 under -icount.
TEST(ToolsHardware, PmcountCountsACommand) {
  const std::string out = RunCommand("pmcount -e PM_INST_CMPL,PM_CYC true");
  printf("%s", out.c_str());
  EXPECT_NE(out.find("PM_INST_CMPL"), std::string::npos) << out;
  EXPECT_NE(out.find("1.000     IPC"), std::string::npos) << out;
  EXPECT_EQ(out.find("not supported"), std::string::npos) << out;
}

TEST(ToolsHardware, PmcountMarksAnUnimplementedEventNotSupported) {
  const std::string out = RunCommand("pmcount -e PM_INST_CMPL,PM_BR_MPRED_CMPL true");
  EXPECT_NE(out.find("<not supported>     PM_BR_MPRED_CMPL"), std::string::npos) << out;
}

}  // namespace
