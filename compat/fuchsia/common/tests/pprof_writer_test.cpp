// SPDX-License-Identifier: MIT
// Profiles written by PprofWriter, read back by zlib and by `go tool pprof` (skipped, with a
// message, where Go is not installed).
#include "fuchsia_common/pprof_writer.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

using fuchsia_common::Label;
using fuchsia_common::PprofWriter;
using fuchsia_common::Symbolizer;

extern "C" __attribute__((noinline)) int PprofTestHotFunction(int x) {
  asm volatile("" ::: "memory");
  return x + 7;
}

namespace {

std::string TempPath(const std::string& name) {
  const char* dir = std::getenv("TMPDIR");
  return std::string(dir && *dir ? dir : "/tmp") + "/fuchsia_common_" + std::to_string(getpid()) +
         "_" + name;
}

// `go` from configure time, else from PATH; empty when neither exists.
std::string GoTool() {
  std::string configured = GO_EXECUTABLE;
  if (!configured.empty() && access(configured.c_str(), X_OK) == 0) return configured;
  for (const char* dir : {"/usr/bin", "/usr/local/go/bin", "/usr/lib/go/bin"}) {
    std::string candidate = std::string(dir) + "/go";
    if (access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return "";
}

// The output of `go tool pprof <args> <profile>`; fails the test if pprof fails.
std::string RunPprof(const std::string& go, const std::string& args, const std::string& profile) {
  std::string home = TempPath("home");
  mkdir(home.c_str(), 0700);
  // HOME: go wants one for its caches; PPROF_BINARY_PATH empty: never look for binaries.
  std::string command = "HOME=" + home + " PPROF_BINARY_PATH=/nonexistent " + go + " tool pprof " +
                        args + " " + profile + " 2>&1";
  std::string output;
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return output;
  char buffer[4096];
  size_t n;
  while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0) output.append(buffer, n);
  int status = pclose(pipe);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << command << "\n" << output;
  rmdir(home.c_str());
  return output;
}

// The first function row of `pprof -top` (rows follow the "flat  flat%" header).
std::string TopFunction(const std::string& top) {
  std::istringstream lines(top);
  std::string line;
  bool header_seen = false;
  while (std::getline(lines, line)) {
    if (line.find("flat%") != std::string::npos) {
      header_seen = true;
      continue;
    }
    if (!header_seen) continue;
    std::istringstream fields(line);
    std::string field, last;
    for (int i = 0; fields >> field; ++i)
      if (i >= 5) last += (last.empty() ? "" : " ") + field;
    return last;
  }
  return "";
}

PprofWriter TwoFunctionProfile() {
  PprofWriter writer({{"samples", "count"}, {"cpu", "nanoseconds"}}, {"cpu", "nanoseconds"},
                     100000);
  uint64_t main_loc = writer.SyntheticLocation("main", "main.c", 10);
  uint64_t hot = writer.SyntheticLocation("hot_function", "main.c", 20);
  uint64_t cold = writer.SyntheticLocation("cold_function", "main.c", 30);
  for (int i = 0; i < 90; ++i)
    writer.AddSample({hot, main_loc}, {1, 100000}, {Label{"tid", "", 42, ""}});
  for (int i = 0; i < 10; ++i)
    writer.AddSample({cold, main_loc}, {1, 100000}, {Label{"thread", "worker", 0, ""}});
  return writer;
}

TEST(PprofWriter, TheGzippedFileHoldsExactlyTheSerializedProfile) {
  PprofWriter writer = TwoFunctionProfile();
  std::string path = TempPath("round.pb.gz");
  std::string error;
  ASSERT_TRUE(writer.WriteGzipped(path, &error)) << error;
  gzFile file = gzopen(path.c_str(), "rb");
  ASSERT_NE(file, nullptr);
  std::string plain;
  char buffer[4096];
  int n;
  while ((n = gzread(file, buffer, sizeof buffer)) > 0) plain.append(buffer, n);
  gzclose(file);
  unlink(path.c_str());
  EXPECT_EQ(plain, writer.Serialize());
  EXPECT_EQ(writer.sample_count(), 100u);
}

TEST(PprofWriter, AnUnwritablePathIsAnError) {
  PprofWriter writer = TwoFunctionProfile();
  std::string error;
  EXPECT_FALSE(writer.WriteGzipped("/nonexistent-dir/profile.pb.gz", &error));
  EXPECT_NE(error.find("/nonexistent-dir/profile.pb.gz"), std::string::npos) << error;
}

TEST(PprofWriter, GoToolPprofListsTheHotFunctionFirst) {
  std::string go = GoTool();
  if (go.empty()) GTEST_SKIP() << "go is not installed (apt-get install golang-go)";
  PprofWriter writer = TwoFunctionProfile();
  std::string path = TempPath("top.pb.gz");
  std::string error;
  ASSERT_TRUE(writer.WriteGzipped(path, &error)) << error;
  std::string top = RunPprof(go, "-top -sample_index=samples", path);
  EXPECT_EQ(TopFunction(top), "hot_function") << top;
  EXPECT_NE(top.find("cold_function"), std::string::npos) << top;
  std::string lines = RunPprof(go, "-top -lines", path);
  EXPECT_NE(lines.find("main.c:20"), std::string::npos) << lines;
  unlink(path.c_str());
}

TEST(PprofWriter, GoToolPprofReadsSymbolizedLocationsOfThisProgram) {
  std::string go = GoTool();
  if (go.empty()) GTEST_SKIP() << "go is not installed (apt-get install golang-go)";
  Symbolizer symbolizer;
  std::string error;
  ASSERT_TRUE(symbolizer.AddProcess(getpid(), &error)) << error;
  PprofWriter writer({{"samples", "count"}}, {"cpu", "nanoseconds"}, 1000);
  uint64_t pc = reinterpret_cast<uint64_t>(reinterpret_cast<const void*>(&PprofTestHotFunction));
  uint64_t leaf = writer.LocationFor(symbolizer, pc + 1, false);
  EXPECT_EQ(writer.LocationFor(symbolizer, pc + 1, false), leaf);  // cached
  uint64_t outside = writer.LocationFor(symbolizer, 0x20, true);
  for (int i = 0; i < 5; ++i) writer.AddSample({leaf}, {1});
  writer.AddSample({outside}, {1});
  std::string path = TempPath("symbols.pb.gz");
  ASSERT_TRUE(writer.WriteGzipped(path, &error)) << error;
  std::string top = RunPprof(go, "-top", path);
  EXPECT_EQ(TopFunction(top), "PprofTestHotFunction") << top;
  EXPECT_NE(top.find("0x20"), std::string::npos) << top;
  std::string lines = RunPprof(go, "-top -lines", path);
  EXPECT_NE(lines.find("pprof_writer_test.cpp:"), std::string::npos) << lines;
  // The symbolized location names its module's mapping (0 would mean "none", which -top does not
  // show): -raw lists each location as "<id>: 0x<address> M=<mapping> <function> ...".
  std::string raw = RunPprof(go, "-raw", path);
  EXPECT_NE(raw.find(" M=1 "), std::string::npos) << raw;
  unlink(path.c_str());
}

}  // namespace
