// pmsample on a workload with known hot functions: its summary, its trace (magic first, every
// record's size chaining to the end), its pprof profile as `go tool pprof` reads it, its raw
// regions, new threads attached as they appear, -p on a running process, and bad usage.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "fuchsia_common/fxt.h"

namespace {

struct ShellRun {
  int status = -1;
  std::string out;
};

ShellRun Shell(const std::string& command) {
  ShellRun run;
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (!pipe) return run;
  char buffer[4096];
  size_t n;
  while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0) run.out.append(buffer, n);
  int status = pclose(pipe);
  run.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return run;
}

class PmsampleTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* tmp = std::getenv("TMPDIR");
    dir_ = std::string(tmp && *tmp ? tmp : "/tmp") + "/pmsample_test_XXXXXX";
    ASSERT_NE(mkdtemp(&dir_[0]), nullptr);
  }
  void TearDown() override { Shell("rm -rf " + dir_); }
  std::string Path(const std::string& name) const { return dir_ + "/" + name; }
  std::string dir_;
};

std::vector<uint64_t> ReadWords(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<uint64_t> words(bytes.size() / 8);
  if (!words.empty()) std::memcpy(words.data(), bytes.data(), words.size() * 8);
  EXPECT_EQ(bytes.size() % 8, 0u) << path;
  return words;
}

// The first function line of the summary ("  self%  total%  samples  function (where)").
std::string TopSummaryFunction(const std::string& out) {
  std::istringstream lines(out);
  std::string line;
  bool header = false;
  while (std::getline(lines, line)) {
    if (line.find("self%") != std::string::npos) {
      header = true;
      continue;
    }
    if (!header) continue;
    std::istringstream fields(line);
    std::string self, total, samples, function;
    fields >> self >> total >> samples >> function;
    return function;
  }
  return "";
}

std::string GoTool() {
  std::string configured = GO_EXECUTABLE;
  if (!configured.empty() && access(configured.c_str(), X_OK) == 0) return configured;
  return access("/usr/bin/go", X_OK) == 0 ? "/usr/bin/go" : "";
}

TEST_F(PmsampleTest, SamplesACommandAndWritesEveryOutput) {
  std::string trace = Path("t.fxt"), profile = Path("p.pb.gz"), raw = Path("raw");
  ShellRun run = Shell(std::string(PMSAMPLE_PATH) + " --period 100000 -o " + trace + " --pprof " +
                       profile + " --raw " + raw + " -- " + SAMPLER_WORKLOAD_PATH + " hot 0.3");
  ASSERT_EQ(run.status, 0) << run.out;
  EXPECT_EQ(TopSummaryFunction(run.out), "hot_loop") << run.out;

  // The trace: magic, then records whose sizes chain exactly to the end of the file, with
  // process and thread names (kernel objects), instant events and the raw sample records.
  std::vector<uint64_t> words = ReadWords(trace);
  ASSERT_FALSE(words.empty());
  EXPECT_EQ(words[0], fuchsia_common::fxt::kMagicRecord);
  std::multiset<int> types;
  size_t at = 0;
  while (at < words.size()) {
    uint64_t header = words[at];
    int type = static_cast<int>(header & 15);
    size_t size = (header >> 4) & 0xfff;  // what Perfetto reads, for large records too
    if (type == 15) {
      EXPECT_EQ(size, (header >> 4) & 0xffffffff);
    }
    ASSERT_GT(size, 0u) << "record at word " << at;
    types.insert(type);
    at += size;
  }
  EXPECT_EQ(at, words.size());
  EXPECT_EQ(types.count(1), 1u);    // initialization
  EXPECT_GE(types.count(7), 2u);    // a process and a thread named
  EXPECT_GT(types.count(4), 100u);  // instant events, one per sample
  EXPECT_EQ(types.count(4), types.count(15));

  // The raw regions parse as the sampler's records and end with a zero word.
  size_t raw_samples = 0;
  for (int cpu = 0; cpu < sysconf(_SC_NPROCESSORS_CONF); ++cpu) {
    std::vector<uint64_t> region = ReadWords(raw + ".cpu" + std::to_string(cpu));
    ASSERT_FALSE(region.empty());
    EXPECT_EQ(region.back(), 0u);
    size_t used = 0;
    std::string error;
    EXPECT_TRUE(fuchsia_common::fxt::WalkSampleRegion(
        region.data(), region.size() * 8,
        [&](const fuchsia_common::fxt::Sample&) { ++raw_samples; }, &used, &error))
        << error;
  }
  EXPECT_EQ(raw_samples, types.count(15));

  std::string go = GoTool();
  if (go.empty())
    GTEST_SKIP() << "go is not installed (apt-get install golang-go): pprof not read back";
  ShellRun top = Shell("HOME=" + dir_ + " " + go + " tool pprof -top " + profile);
  ASSERT_EQ(top.status, 0) << top.out;
  std::istringstream lines(top.out);
  std::string line, first;
  bool header = false;
  while (std::getline(lines, line)) {
    if (line.find("flat%") != std::string::npos) {
      header = true;
      continue;
    }
    if (header) {
      first = line;
      break;
    }
  }
  EXPECT_NE(first.find("hot_loop"), std::string::npos) << top.out;
  ShellRun lines_run = Shell("HOME=" + dir_ + " " + go + " tool pprof -top -lines " + profile);
  EXPECT_NE(lines_run.out.find("sampler_workload.c:"), std::string::npos) << lines_run.out;
}

TEST_F(PmsampleTest, ThreadsTheCommandCreatesAreSampledAsTheyAppear) {
  ShellRun run = Shell(std::string(PMSAMPLE_PATH) + " --period 100000 -o " + Path("t.fxt") +
                       " -- " + SAMPLER_WORKLOAD_PATH + " threads 0.15");
  ASSERT_EQ(run.status, 0) << run.out;
  EXPECT_NE(run.out.find("hot_loop_a"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("hot_loop_b"), std::string::npos) << run.out;
  // The main thread and the two it creates (a sanitizer may add one of its own).
  unsigned samples = 0, threads = 0;
  ASSERT_EQ(
      std::sscanf(run.out.c_str(), "pmsample: %u samples of %u thread(s)", &samples, &threads), 2)
      << run.out;
  EXPECT_GE(threads, 3u) << run.out;
}

TEST_F(PmsampleTest, SamplesARunningProcessAndTheThreadsItCreatesMeanwhile) {
  int out_pipe[2];
  ASSERT_EQ(pipe(out_pipe), 0);
  pid_t workload = fork();
  ASSERT_GE(workload, 0);
  if (workload == 0) {
    dup2(out_pipe[1], 1);
    close(out_pipe[0]);
    close(out_pipe[1]);
    execl(SAMPLER_WORKLOAD_PATH, SAMPLER_WORKLOAD_PATH, "wait", "0.15", (char*)nullptr);
    _exit(127);
  }
  close(out_pipe[1]);
  char ready[6] = {};
  ASSERT_EQ(read(out_pipe[0], ready, 6), 6);  // "ready\n": SIGUSR1 is blocked now
  close(out_pipe[0]);
  // pmsample prints its "sampling" line once attached and started; then the workload goes.
  std::string command = std::string(PMSAMPLE_PATH) + " --period 100000 -o " + Path("t.fxt") +
                        " -p " + std::to_string(workload) + " 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  std::string out;
  char buffer[4096];
  while (fgets(buffer, sizeof buffer, pipe)) {
    out += buffer;
    if (out.find("pmsample: sampling") != std::string::npos) break;
  }
  kill(workload, SIGUSR1);
  while (fgets(buffer, sizeof buffer, pipe)) out += buffer;
  int status = pclose(pipe);
  int workload_status = 0;
  waitpid(workload, &workload_status, 0);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << out;
  EXPECT_NE(out.find("hot_loop_a"), std::string::npos) << out;
  EXPECT_NE(out.find("hot_loop_b"), std::string::npos) << out;
}

TEST_F(PmsampleTest, AStrippedProgramIsNamedByModuleAndOffsetNeverByANeighbour) {
  std::string stripped = std::string(SAMPLER_WORKLOAD_PATH) + ".stripped";
  ShellRun run = Shell(std::string(PMSAMPLE_PATH) + " --period 100000 --top 3 -o '' -- " +
                       stripped + " hot 0.2");
  ASSERT_EQ(run.status, 0) << run.out;
  std::string top = TopSummaryFunction(run.out);
  EXPECT_EQ(top.rfind("sampler_workload.stripped+0x", 0), 0u) << run.out;
  EXPECT_EQ(run.out.find("hot_loop"), std::string::npos) << run.out;
}

TEST_F(PmsampleTest, BadUsageIsExplainedWithStatusTwo) {
  EXPECT_EQ(Shell(std::string(PMSAMPLE_PATH)).status, 2);
  ShellRun fast = Shell(std::string(PMSAMPLE_PATH) + " -F 200000 -- true");
  EXPECT_EQ(fast.status, 2);
  EXPECT_NE(fast.out.find("-F"), std::string::npos) << fast.out;
  ShellRun period = Shell(std::string(PMSAMPLE_PATH) + " --period 5000 -- true");
  EXPECT_EQ(period.status, 2);
  ShellRun missing =
      Shell(std::string(PMSAMPLE_PATH) + " -o " + Path("t.fxt") + " -- /nonexistent/program");
  EXPECT_EQ(missing.status, 127);
  EXPECT_NE(missing.out.find("cannot run"), std::string::npos) << missing.out;
  ShellRun gone = Shell(std::string(PMSAMPLE_PATH) + " -p 2147483000");
  EXPECT_EQ(gone.status, 1);
  EXPECT_NE(gone.out.find("2147483000"), std::string::npos) << gone.out;
}

}  // namespace
