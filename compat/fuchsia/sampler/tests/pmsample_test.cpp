// SPDX-License-Identifier: MIT
// pmsample on a workload with known hot functions: its summary, its trace (magic first, every
// record's size chaining to the end), its pprof profile as `go tool pprof` reads it (titled
// after the program), its raw regions, new threads attached as they appear, -p on a running
// process and on one that is gone, outputs checked before the command runs and never written
// through another user's link, bad usage and numbers that are not whole, and a summary that
// prints long or hostile names whole, one row per line, escaped.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sched.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
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

// Starts `path wait ARG` with its standard output on a pipe and returns once it printed
// "ready" (SIGUSR1 blocked: it waits for it): the pid, or -1, and the pipe's read end in *out,
// which the caller closes.
pid_t StartWaitingWorkload(const char* path, const char* arg, int* out) {
  int out_pipe[2];
  if (pipe(out_pipe) != 0) return -1;
  const pid_t workload = fork();
  if (workload == 0) {
    dup2(out_pipe[1], 1);
    close(out_pipe[0]);
    close(out_pipe[1]);
    execl(path, path, "wait", arg, (char*)nullptr);
    _exit(127);
  }
  close(out_pipe[1]);
  *out = out_pipe[0];
  char ready[6] = {};
  if (workload < 0 || read(out_pipe[0], ready, 6) != 6) {  // "ready\n"
    close(out_pipe[0]);
    *out = -1;
    if (workload > 0) {
      kill(workload, SIGKILL);
      waitpid(workload, nullptr, 0);
    }
    return -1;
  }
  return workload;
}

// Runs `command` (pmsample -p of the waiting `workload`) and, once it printed its "sampling"
// line (attached and started), lets the workload go with SIGUSR1; returns all it printed and its
// exit status (as Shell's) once it ended.
ShellRun SampleUntilDone(const std::string& command, pid_t workload) {
  ShellRun run;
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return run;
  char buffer[4096];
  while (fgets(buffer, sizeof buffer, pipe)) {
    run.out += buffer;
    if (run.out.find("pmsample: sampling") != std::string::npos) break;
  }
  kill(workload, SIGUSR1);
  while (fgets(buffer, sizeof buffer, pipe)) run.out += buffer;
  const int status = pclose(pipe);
  run.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return run;
}

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

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// What `go tool pprof` takes for the profile's main binary: the "File:" line of -top (from
// the first mapping) and the first of -raw's mappings.
void ExpectTheMainMappingIs(const std::string& go, const std::string& home,
                            const std::string& profile, const std::string& program) {
  ShellRun top = Shell("HOME=" + home + " " + go + " tool pprof -top " + profile);
  ASSERT_EQ(top.status, 0) << top.out;
  std::string base = program.substr(program.rfind('/') + 1);
  EXPECT_EQ(top.out.rfind("File: " + base + "\n", 0), 0u) << top.out;
  ShellRun raw = Shell("HOME=" + home + " " + go + " tool pprof -raw " + profile);
  size_t mappings = raw.out.find("Mappings\n1: ");
  ASSERT_NE(mappings, std::string::npos) << raw.out;
  std::string first = raw.out.substr(mappings, raw.out.find('\n', mappings + 9) - mappings);
  EXPECT_NE(first.find(" " + program + " "), std::string::npos) << raw.out;
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
  // Not the dynamic loader nor libc, whose PCs (pmsample's own child before it execs, ld.so
  // before main) come first in time.
}

TEST_F(PmsampleTest, ThePprofProfileIsTitledAfterTheProgramNotTheLoader) {
  std::string go = GoTool();
  if (go.empty()) GTEST_SKIP() << "go is not installed (apt-get install golang-go)";
  // On one CPU the region holds the samples in time order: pmsample's child before it execs
  // (libc), then ld.so, then the program, sampled every 10 us so each of them shows.
  cpu_set_t saved, one;
  ASSERT_EQ(sched_getaffinity(0, sizeof saved, &saved), 0);
  CPU_ZERO(&one);
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
    if (CPU_ISSET(cpu, &saved)) {
      CPU_SET(cpu, &one);
      break;
    }
  ASSERT_EQ(sched_setaffinity(0, sizeof one, &one), 0);
  std::string profile = Path("p.pb.gz");
  ShellRun run = Shell(std::string(PMSAMPLE_PATH) + " -q --period 10000 -o '' --pprof " + profile +
                       " -- " + SAMPLER_WORKLOAD_PATH + " hot 0.05");
  sched_setaffinity(0, sizeof saved, &saved);
  ASSERT_EQ(run.status, 0) << run.out;
  ShellRun raw = Shell("HOME=" + dir_ + " " + go + " tool pprof -raw " + profile);
  EXPECT_NE(raw.out.find("ld-linux"), std::string::npos) << "no sample in the loader\n" << raw.out;
  ExpectTheMainMappingIs(go, dir_, profile, SAMPLER_WORKLOAD_PATH);
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
  int workload_out = -1;
  const pid_t workload = StartWaitingWorkload(SAMPLER_WORKLOAD_PATH, "0.15", &workload_out);
  ASSERT_GT(workload, 0) << "cannot start " << SAMPLER_WORKLOAD_PATH;
  close(workload_out);
  std::string command = std::string(PMSAMPLE_PATH) + " --period 100000 -o " + Path("t.fxt") +
                        " --pprof " + Path("p.pb.gz") + " -p " + std::to_string(workload) + " 2>&1";
  const ShellRun run = SampleUntilDone(command, workload);
  const std::string& out = run.out;
  int workload_status = 0;
  waitpid(workload, &workload_status, 0);
  EXPECT_EQ(run.status, 0) << out;
  EXPECT_NE(out.find("hot_loop_a"), std::string::npos) << out;
  EXPECT_NE(out.find("hot_loop_b"), std::string::npos) << out;
  std::string go = GoTool();
  if (go.empty()) GTEST_SKIP() << "go is not installed (apt-get install golang-go)";
  ExpectTheMainMappingIs(go, dir_, Path("p.pb.gz"), SAMPLER_WORKLOAD_PATH);
}

TEST_F(PmsampleTest, AProcessThatExitedIsNoSuchProcess) {
  // Reaped: the id names no process. A zombie: exited, not yet waited for.
  pid_t reaped = fork();
  ASSERT_GE(reaped, 0);
  if (reaped == 0) _exit(0);
  waitpid(reaped, nullptr, 0);
  pid_t zombie = fork();
  ASSERT_GE(zombie, 0);
  if (zombie == 0) _exit(0);
  siginfo_t info{};
  ASSERT_EQ(waitid(P_PID, static_cast<id_t>(zombie), &info, WEXITED | WNOWAIT), 0);
  for (pid_t pid : {reaped, zombie}) {
    ShellRun run =
        Shell(std::string(PMSAMPLE_PATH) + " -o " + Path("t.fxt") + " -p " + std::to_string(pid));
    EXPECT_EQ(run.status, 125) << run.out;
    EXPECT_NE(run.out.find("pmsample: -p " + std::to_string(pid) + ": no such process"),
              std::string::npos)
        << run.out;
    EXPECT_EQ(run.out.find("maps"), std::string::npos) << run.out;
  }
  waitpid(zombie, nullptr, 0);
  EXPECT_NE(access(Path("t.fxt").c_str(), F_OK), 0) << "no trace for no process";
}

TEST_F(PmsampleTest, AnOutputThatCannotBeWrittenStopsItBeforeTheCommandRuns) {
  std::string marker = Path("ran");
  std::string command = " -- sh -c 'echo > " + marker + "; exit 3'";
  for (std::string option : {"-o ", "--pprof ", "--raw ", "--folded ", "--flamegraph "}) {
    std::string bad = Path("missing/out");
    ShellRun run = Shell(std::string(PMSAMPLE_PATH) + " -q -o " + Path("t.fxt") + " " + option +
                         bad + command);
    EXPECT_EQ(run.status, 125) << option << run.out;
    std::string expected = "pmsample: cannot write " + bad;
    if (option == "--raw ") expected += ".cpu0";
    EXPECT_NE(run.out.find(expected + ": No such file or directory"), std::string::npos) << run.out;
    EXPECT_NE(access(marker.c_str(), F_OK), 0) << option << "the command ran";
  }
  ShellRun directory = Shell(std::string(PMSAMPLE_PATH) + " -q -o " + dir_ + command);
  EXPECT_EQ(directory.status, 125) << directory.out;
  EXPECT_NE(directory.out.find("cannot write " + dir_ + ": it is a directory"), std::string::npos)
      << directory.out;
  // Writable: the command runs and its status is pmsample's.
  ShellRun good = Shell(std::string(PMSAMPLE_PATH) + " -q -o " + Path("t.fxt") + command);
  EXPECT_EQ(good.status, 3) << good.out;
  EXPECT_EQ(access(marker.c_str(), F_OK), 0);
  // Written in place: a device.
  EXPECT_EQ(Shell(std::string(PMSAMPLE_PATH) + " -q -o /dev/null -- true").status, 0);
  struct stat null_stat;
  ASSERT_EQ(stat("/dev/null", &null_stat), 0);
  EXPECT_TRUE(S_ISCHR(null_stat.st_mode));
}

TEST_F(PmsampleTest, AnotherUsersLinkAtAnOutputIsRefusedNeverWrittenThrough) {
  if (geteuid() != 0) GTEST_SKIP() << "needs root, to plant a link owned by another user";
  const std::string victim = Path("victim"), text = "precious\n", marker = Path("ran");
  { std::ofstream(victim) << text; }
  // A link planted by "nobody" at each output, as another user would in /tmp: refused before
  // the command runs (docs/tools.md, "Output files").
  const std::string trace = Path("t.fxt"), profile = Path("p.pb.gz"), raw = Path("raw");
  const std::string folded = Path("f.txt"), picture = Path("fg.html");
  for (std::string link : {trace, profile, raw + ".cpu0", folded, picture}) {
    ASSERT_EQ(symlink(victim.c_str(), link.c_str()), 0) << link;
    ASSERT_EQ(lchown(link.c_str(), 65534, 65534), 0) << link;
    ShellRun run =
        Shell(std::string(PMSAMPLE_PATH) + " -q --period 100000" +
              (link == trace ? " -o " + trace : " -o ''") +
              (link == profile ? " --pprof " + profile : "") +
              (link == raw + ".cpu0" ? " --raw " + raw : "") +
              (link == folded ? " --folded " + folded : "") +
              (link == picture ? " --flamegraph " + picture : "") + " -- touch " + marker);
    EXPECT_EQ(run.status, 125) << run.out;
    EXPECT_NE(
        run.out.find("pmsample: cannot write " + link + ": it is a symbolic link of user 65534"),
        std::string::npos)
        << run.out;
    EXPECT_NE(access(marker.c_str(), F_OK), 0) << link << ": the command ran";
    EXPECT_EQ(ReadFile(victim), text);
    struct stat st;
    ASSERT_EQ(lstat(link.c_str(), &st), 0) << link;
    EXPECT_TRUE(S_ISLNK(st.st_mode)) << link << " is left as it was";
    ASSERT_EQ(unlink(link.c_str()), 0);
  }
  // root's own link is followed: the output lands where it points, the link stays.
  const std::string mine = Path("mine.fxt"), where = Path("where.fxt");
  ASSERT_EQ(symlink(where.c_str(), mine.c_str()), 0);
  ASSERT_EQ(Shell(std::string(PMSAMPLE_PATH) + " -q -o " + mine + " -- true").status, 0);
  struct stat st;
  ASSERT_EQ(lstat(mine.c_str(), &st), 0);
  EXPECT_TRUE(S_ISLNK(st.st_mode));
  EXPECT_EQ(ReadWords(where).at(0), fuchsia_common::fxt::kMagicRecord);
  // No temporary file (".NAME.XXXXXX") is left behind.
  EXPECT_EQ(Shell("ls -A " + dir_ + " | grep -c '^\\.'").out, "0\n");
}

TEST_F(PmsampleTest, WritesNoFileItWasNotAskedFor) {
  // Run where it would have written its trace (it once wrote pmsample.fxt there unasked).
  ShellRun run = Shell("cd " + dir_ + " && " + PMSAMPLE_PATH + " --period 100000 -- " +
                       SAMPLER_WORKLOAD_PATH + " hot 0.05");
  ASSERT_EQ(run.status, 0) << run.out;
  EXPECT_NE(run.out.find("hot_loop"), std::string::npos) << run.out;  // the summary: it sampled
  EXPECT_EQ(Shell("ls -A " + dir_).out, "");
}

// The folded stacks' lines as (frames outermost first, samples).
std::vector<std::pair<std::vector<std::string>, long>> ReadFolded(const std::string& path) {
  std::vector<std::pair<std::vector<std::string>, long>> stacks;
  std::istringstream lines(ReadFile(path));
  std::string line;
  while (std::getline(lines, line)) {
    size_t space = line.rfind(' ');
    std::vector<std::string> frames;
    std::istringstream names(line.substr(0, space));
    std::string name;
    while (std::getline(names, name, ';')) frames.push_back(name);
    stacks.emplace_back(frames, std::atol(line.c_str() + space + 1));
  }
  return stacks;
}

TEST_F(PmsampleTest, AReturnAddressOutsideTheCodeEndsTheStack) {
#if !defined(__x86_64__)
  GTEST_SKIP() << "the workload's bad frame is written in x86-64 assembly";
#endif
  // Every sample in bad_frame_loop has, after its PC, the "return address" of a frame register
  // pointing at data: the address of that data, which no function holds.
  std::string folded = Path("f.txt");
  ShellRun run = Shell(std::string(PMSAMPLE_PATH) + " --period 100000 --folded " + folded + " -- " +
                       SAMPLER_WORKLOAD_PATH + " badframe 0.2");
  ASSERT_EQ(run.status, 0) << run.out;
  long in_loop = 0, alone = 0;
  for (const auto& [frames, samples] : ReadFolded(folded)) {
    if (frames.back() != "bad_frame_loop") continue;
    in_loop += samples;
    // The thread's name, then the sampled function, nothing made of the bad frame (a sample
    // at the loop's first instruction, before it moved the frame register, has real callers).
    if (frames.size() == 2) alone += samples;
    for (const std::string& frame : frames) EXPECT_NE(frame.rfind("0x", 0), 0u) << ReadFile(folded);
  }
  EXPECT_GT(in_loop, 100) << ReadFile(folded);
  EXPECT_GE(alone * 10, in_loop * 9) << ReadFile(folded);
  // No bare address in the summary as a caller only (self 0): what the bad frame made.
  std::istringstream lines(run.out);
  std::string line;
  while (std::getline(lines, line)) {
    std::istringstream fields(line);
    std::string self, total, samples, function;
    fields >> self >> total >> samples >> function;
    EXPECT_FALSE(samples == "0" && function.rfind("0x", 0) == 0) << run.out;
  }
}

// Samples of unwind_workload (built without frame pointers) whose stack ends, outermost first,
// main;outer;middle;leaf, and all whose innermost frame is leaf.
struct LeafStacks {
  long complete = 0, in_leaf = 0;
};
LeafStacks CountLeafStacks(const std::string& folded) {
  LeafStacks counted;
  const std::vector<std::string> chain = {"main", "outer", "middle", "leaf"};
  for (const auto& [frames, samples] : ReadFolded(folded)) {
    if (frames.empty() || frames.back() != "leaf") continue;
    counted.in_leaf += samples;
    if (frames.size() >= chain.size() &&
        std::equal(chain.begin(), chain.end(), frames.end() - chain.size()))
      counted.complete += samples;
  }
  return counted;
}

// Runs pmsample with `options` on unwind_workload, its stacks folded into `folded`, and counts
// them; the run must succeed and give the hot loop's samples.
void SampleUnwindWorkload(const std::string& options, const std::string& folded,
                          LeafStacks* stacks) {
  // 1 kHz, pmsample's default: a DWARF sample is ~8.3 KiB, so a CPU's ring holds ~60 of them;
  // at 10 kHz a slowed drainer (a sanitizer build) lost most (16 of ~3,500 leaf samples).
  ShellRun run = Shell(std::string(PMSAMPLE_PATH) + " --period 1000000 -q" + options +
                       " --folded " + folded + " -- " + UNWIND_WORKLOAD_PATH);
  ASSERT_EQ(run.status, 0) << options << ": " << run.out;
  *stacks = CountLeafStacks(folded);
  EXPECT_GT(stacks->in_leaf, 100) << options << ": " << ReadFile(folded);
}

TEST_F(PmsampleTest, CallGraphDwarfFindsTheCallersOfCodeWithoutFramePointers) {
  const std::string folded = Path("dwarf.txt");
  LeafStacks dwarf;
  ASSERT_NO_FATAL_FAILURE(SampleUnwindWorkload(" --call-graph dwarf", folded, &dwarf));
  // The samples in the hot loop have their whole chain (CFI describes every instruction of
  // leaf); a sample drained before its process's mapping records (they may be in another
  // CPU's ring) after the process is gone could miss it: 99%.
  EXPECT_GE(dwarf.complete * 100, dwarf.in_leaf * 99) << ReadFile(folded);
}

TEST_F(PmsampleTest, FramePointersAloneDoNotFindThem) {
  // The default, and --call-graph fp: the same program loses leaf's callers, which is what
  // --call-graph dwarf is for.
  for (const char* option : {"", " --call-graph fp"}) {
    const std::string folded = Path("fp.txt");
    LeafStacks fp;
    ASSERT_NO_FATAL_FAILURE(SampleUnwindWorkload(option, folded, &fp));
    EXPECT_EQ(fp.complete, 0) << option << ": " << ReadFile(folded);
  }
}

TEST_F(PmsampleTest, CallGraphDwarfUnwindsARunningProcessFromItsMappingsTable) {
  // Attached with -p after it started: no mmap record of its program or libraries, so the
  // unwinder reads /proc/PID/maps (names and addresses, never its memory).
  int workload_out = -1;
  const pid_t workload = StartWaitingWorkload(UNWIND_WORKLOAD_PATH, "300000000", &workload_out);
  ASSERT_GT(workload, 0) << "cannot start " << UNWIND_WORKLOAD_PATH;
  const std::string folded = Path("p.txt");
  std::string command = std::string(PMSAMPLE_PATH) + " --period 1000000 -q --call-graph dwarf" +
                        " --folded " + folded + " -p " + std::to_string(workload) + " 2>&1";
  const ShellRun run = SampleUntilDone(command, workload);
  const std::string& out = run.out;
  close(workload_out);
  waitpid(workload, nullptr, 0);
  ASSERT_EQ(run.status, 0) << out;
  LeafStacks dwarf = CountLeafStacks(folded);
  EXPECT_GT(dwarf.in_leaf, 100) << ReadFile(folded);
  EXPECT_GE(dwarf.complete * 100, dwarf.in_leaf * 99) << ReadFile(folded);
}

TEST_F(PmsampleTest, CallGraphDwarfTakesAStackSizeAndRefusesOthers) {
  // A copy too small for main's frame: the chain is cut, the samples are still written.
  const std::string folded = Path("small.txt");
  LeafStacks cut;
  ASSERT_NO_FATAL_FAILURE(SampleUnwindWorkload(" --call-graph dwarf,8", folded, &cut));
  EXPECT_EQ(cut.complete, 0) << ReadFile(folded);
  for (const char* bad : {"lbr", "dwarf,", "dwarf,x", "dwarf,70000", "dwarfs", "fp,8", ""}) {
    ShellRun run = Shell(std::string(PMSAMPLE_PATH) + " --call-graph '" + bad + "' -- true");
    EXPECT_EQ(run.status, 2) << bad << ": " << run.out;
    EXPECT_NE(run.out.find("--call-graph takes fp"), std::string::npos) << bad << ": " << run.out;
  }
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
  ShellRun gone = Shell(std::string(PMSAMPLE_PATH) + " -p 4194304");  // pid_max's limit
  EXPECT_EQ(gone.status, 125);
  EXPECT_NE(gone.out.find("-p 4194304: no such process"), std::string::npos) << gone.out;
  // -e names a hardware event and takes a period of events, not a frequency.
  ShellRun event = Shell(std::string(PMSAMPLE_PATH) + " -e branches --period 100000 -- true");
  EXPECT_EQ(event.status, 2);
  EXPECT_NE(event.out.find("-e takes instructions or cycles"), std::string::npos) << event.out;
  ShellRun event_rate = Shell(std::string(PMSAMPLE_PATH) + " -e instructions -F 100 -- true");
  EXPECT_EQ(event_rate.status, 2);
  EXPECT_NE(event_rate.out.find("with -e give --period"), std::string::npos) << event_rate.out;
  for (const char* bad : {" --no-such-option -- true", " -p", " -p x", " --top x -- true", " -- ",
                          " -p 1 -- true", " -d 0 -p 1", " -e -- true"}) {
    ShellRun run = Shell(std::string(PMSAMPLE_PATH) + bad);
    EXPECT_EQ(run.status, 2) << bad << ": " << run.out;
    EXPECT_NE(run.out.find("pmsample"), std::string::npos) << bad << ": " << run.out;
  }
}

TEST_F(PmsampleTest, NumbersAreWholeAndInRangeOrAUsageErrorNamingTheOption) {
  // Each once read as floating point and cast: 376.9 sampled pid 376, 4294967295 became
  // -2147483648, 0.5 became 0 (no -p: the command ran), 1e-10 and 1e30 overflowed, 0x10 was 16.
  const std::string ran = Path("ran");
  const struct {
    const char* args;
    const char* names;
  } bad[] = {{"-p 376.9", "for -p"},
             {"-p 4294967295", "for -p"},
             {"-q -p 0.5", "for -p"},
             {"-F 1e-10", "for -F"},
             {"--period 1e30", "for --period"},
             {"-F 0x10", "for -F"},
             {"--freq=0.5", "for --freq"},
             {"--buffer-mb 1.5", "for --buffer-mb"},
             {"--top 2.5", "for --top"},
             {"--call-graph dwarf,1e3", "--call-graph takes fp"},
             {"-d 1e9 -p 1", "for -d"}};
  for (const auto& b : bad) {
    ShellRun run = Shell(std::string(PMSAMPLE_PATH) + " " + b.args + " -- touch " + ran);
    EXPECT_EQ(run.status, 2) << b.args << ": " << run.out;
    EXPECT_NE(run.out.find(b.names), std::string::npos) << b.args << ": " << run.out;
    EXPECT_NE(access(ran.c_str(), F_OK), 0) << b.args << ": the command ran";
  }
  ShellRun run = Shell(std::string(PMSAMPLE_PATH) + " -p 376.9");
  EXPECT_NE(run.out.find("bad process id '376.9' for -p: give a whole number from 1 to 4194304"),
            std::string::npos)
      << run.out;
}

TEST_F(PmsampleTest, TheSummaryHasOneRowPerFunctionWithItsNameWholeAndEscaped) {
  // A name with escape sequences (clear the screen, set the title, a C1 CSI) and one of 2 KB:
  // each row whole on a line of its own, nothing a terminal would obey.
  ShellRun run = Shell(std::string(PMSAMPLE_PATH) + " --period 100000 --top 5 -- " +
                       NAMES_WORKLOAD_PATH + " 0.2");
  ASSERT_EQ(run.status, 0) << run.out;
  std::string esc_row, long_row;
  std::istringstream lines(run.out);
  for (std::string line; std::getline(lines, line);) {
    if (line.find("esc") != std::string::npos) esc_row = line;
    if (line.find("ns::Wrapper<") != std::string::npos) long_row = line;
    for (unsigned char c : line) EXPECT_TRUE(c >= 0x20 && c != 0x7f) << "a control byte: " << line;
    EXPECT_EQ(line.find("\xc2\x9b"), std::string::npos) << line;
  }
  // The name whole, then its place. clang's assembler keeps the label's quotes in the symbol's
  // name, GCC's drops them: either is the name as the program has it.
  const std::string escaped = "esc\\x1b[2J\\x1b]0;owned\\x07\\u009bend";
  const size_t esc_at = esc_row.find(escaped);
  ASSERT_NE(esc_at, std::string::npos) << run.out;
  size_t after = esc_at + escaped.size();
  if (after < esc_row.size() && esc_row[after] == '"') ++after;
  EXPECT_EQ(esc_row.compare(after, 2, " ("), 0) << esc_row;
  std::string long_name;
  for (int i = 0; i < 60; ++i) long_name += "ns::Wrapper<ns::Pair<int, long>, ";
  long_name += "end>::run";
  const size_t at = long_row.find(long_name);
  ASSERT_NE(at, std::string::npos) << run.out;
  // Its place follows, whole: "(names_workload.c:LINE)".
  EXPECT_NE(long_row.find(" (", at + long_name.size()), std::string::npos) << long_row;
  EXPECT_EQ(long_row.back(), ')') << long_row;
  EXPECT_NE(long_row.find("names_workload.c:"), std::string::npos) << long_row;
}

}  // namespace
