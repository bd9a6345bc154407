// SPDX-License-Identifier: MIT
// pmsample on processes whose mappings change: a library loaded where another was unloaded
// (each sample named by what was mapped at its PC at its time), a running process that maps a
// library after it was attached (--call-graph dwarf keeps what it mapped before), a FIFO put at
// a mapped library's path (never waited on), and many processes of one program (its files
// indexed once: memory does not grow with the processes).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace {

struct Outcome {
  int status = -1;
  std::string out;
  long max_rss_kb = 0;  // pmsample's own peak
};

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// Samples per function named in --folded stacks (each stack's samples count once per function
// in it).
std::map<std::string, long> SamplesByFunction(const std::string& path) {
  std::map<std::string, long> samples;
  std::istringstream lines(ReadFile(path));
  std::string line;
  while (std::getline(lines, line)) {
    const size_t space = line.rfind(' ');
    if (space == std::string::npos) continue;
    const long count = std::atol(line.c_str() + space + 1);
    std::istringstream names(line.substr(0, space));
    std::map<std::string, bool> seen;
    for (std::string name; std::getline(names, name, ';');)
      if (!seen[name]) {
        seen[name] = true;
        samples[name] += count;
      }
  }
  return samples;
}

// pmsample started with `arguments`, its output and errors on a pipe, for a test that acts
// while it runs; Finish waits for it as Pmsample does.
struct Started {
  pid_t pid = -1;
  int out = -1;
};

Started Start(const std::string& arguments) {
  Started started;
  int out[2];
  if (pipe(out) != 0) return started;
  started.pid = fork();
  if (started.pid == 0) {
    dup2(out[1], 1);
    dup2(out[1], 2);
    close(out[0]);
    close(out[1]);
    execl("/bin/sh", "sh", "-c", ("exec " + std::string(PMSAMPLE_PATH) + " " + arguments).c_str(),
          (char*)nullptr);
    _exit(127);
  }
  close(out[1]);
  started.out = out[0];
  return started;
}

// Reads what `started` prints until `text` appeared (true) or it closed its output.
bool WaitFor(const Started& started, const std::string& text, std::string* out) {
  char buffer[4096];
  ssize_t n;
  while (out->find(text) == std::string::npos && (n = read(started.out, buffer, sizeof buffer)) > 0)
    out->append(buffer, static_cast<size_t>(n));
  return out->find(text) != std::string::npos;
}

Outcome Finish(const Started& started, std::string out, int limit_seconds) {
  Outcome run;
  run.out = std::move(out);
  fcntl(started.out, F_SETFL, O_NONBLOCK);
  const time_t deadline = time(nullptr) + limit_seconds;
  int status = 0;
  rusage usage{};
  char buffer[4096];
  ssize_t n;
  for (;;) {
    while ((n = read(started.out, buffer, sizeof buffer)) > 0) run.out.append(buffer, n);
    if (wait4(started.pid, &status, WNOHANG, &usage) == started.pid) break;
    if (time(nullptr) > deadline) kill(started.pid, SIGKILL);
    usleep(20000);
  }
  while ((n = read(started.out, buffer, sizeof buffer)) > 0) run.out.append(buffer, n);
  close(started.out);
  run.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  run.max_rss_kb = usage.ru_maxrss;
  return run;
}

// Starts `command` (a program printing "ready" then waiting for SIGUSR1) with its output on a
// pipe; returns its pid once it is ready, or -1.
pid_t StartWaiting(const std::vector<std::string>& command) {
  int out[2];
  if (pipe(out) != 0) return -1;
  const pid_t pid = fork();
  if (pid == 0) {
    dup2(out[1], 1);
    close(out[0]);
    close(out[1]);
    std::vector<char*> argv;
    for (const std::string& word : command) argv.push_back(const_cast<char*>(word.c_str()));
    argv.push_back(nullptr);
    execv(argv[0], argv.data());
    _exit(127);
  }
  close(out[1]);
  char ready[6] = {};
  const bool ok = pid > 0 && read(out[0], ready, 6) == 6;  // "ready\n"
  close(out[0]);
  if (!ok && pid > 0) {
    kill(pid, SIGKILL);
    waitpid(pid, nullptr, 0);
  }
  return ok ? pid : -1;
}

// Runs pmsample with `arguments` (shell words) to its end, never longer than `limit_seconds`
// (then killed: a hang is a failure, 128 + SIGKILL).
Outcome Pmsample(const std::string& arguments, int limit_seconds = 240) {
  return Finish(Start(arguments), "", limit_seconds);
}

class PmsampleMappings : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* tmp = std::getenv("TMPDIR");
    dir_ = std::string(tmp && *tmp ? tmp : "/tmp") + "/pmsample_mappings_XXXXXX";
    ASSERT_NE(mkdtemp(&dir_[0]), nullptr);
  }
  void TearDown() override { (void)!system(("rm -rf " + dir_).c_str()); }
  std::string Path(const std::string& name) const { return dir_ + "/" + name; }
  std::string dir_;
};

TEST_F(PmsampleMappings, ALibraryLoadedWhereAnotherWasUnloadedNamesOnlyItsOwnSamples) {
  const std::string folded = Path("f.txt");
  Outcome run = Pmsample("--period 1000000 -q --folded " + folded + " -- " + DLOPEN_WORKLOAD_PATH +
                         " swap " + ALPHA_LIBRARY_PATH + " " + BETA_LIBRARY_PATH + " 0.3");
  ASSERT_EQ(run.status, 0) << run.out;
  char first[32] = {}, second[32] = {};
  const size_t at = run.out.find("run_hot: ");
  ASSERT_NE(at, std::string::npos) << run.out;
  ASSERT_EQ(std::sscanf(run.out.c_str() + at, "run_hot: %31s then %31s", first, second), 2);
  if (std::string(first) != second)
    GTEST_SKIP() << "the second library was loaded elsewhere (" << first << ", " << second
                 << "): nothing was mapped over";
  std::map<std::string, long> samples = SamplesByFunction(folded);
  // 0.3 s each at 1 kHz: ~300 samples each, under its own name.
  EXPECT_GT(samples["alpha_hot"], 150) << ReadFile(folded);
  EXPECT_GT(samples["beta_hot"], 150) << ReadFile(folded);
  EXPECT_LT(samples["beta_hot"], samples["alpha_hot"] * 2) << ReadFile(folded);
}

TEST_F(PmsampleMappings, CallGraphDwarfKeepsTheCallersOfARunningProcessThatMapsALibrary) {
  // Attached with -p, then it loads a library: the unwinder has the mappings it had before
  // the attach (its program's among them) and the new one as well.
  const pid_t workload =
      StartWaiting({UNWIND_WORKLOAD_PATH, "wait", "300000000", ALPHA_LIBRARY_PATH});
  ASSERT_GT(workload, 0) << "cannot start " << UNWIND_WORKLOAD_PATH;
  const std::string folded = Path("p.txt");
  Started pmsample = Start("--period 1000000 -q --call-graph dwarf --folded " + folded + " -p " +
                           std::to_string(workload));
  std::string out;
  const bool sampling = WaitFor(pmsample, "pmsample: sampling", &out);
  kill(workload, SIGUSR1);
  Outcome run = Finish(pmsample, out, 240);
  waitpid(workload, nullptr, 0);
  ASSERT_TRUE(sampling) << run.out;
  ASSERT_EQ(run.status, 0) << run.out;
  long complete = 0, in_leaf = 0;
  const std::string chain = "main;outer;middle;leaf ";
  std::istringstream lines(ReadFile(folded));
  for (std::string line; std::getline(lines, line);) {
    const size_t space = line.rfind(' ');
    if (space == std::string::npos || line.compare(space - 5, 5, ";leaf") != 0) continue;
    const long count = std::atol(line.c_str() + space + 1);
    in_leaf += count;
    if (line.find(chain) != std::string::npos) complete += count;
  }
  EXPECT_GT(in_leaf, 100) << ReadFile(folded);
  EXPECT_GE(complete * 100, in_leaf * 99) << ReadFile(folded);
}

TEST_F(PmsampleMappings, AFifoPutAtALoadedLibrarysPathIsNeverWaitedOn) {
  // The program loads a copy of a library, removes it and puts a FIFO at its path: the
  // unwinder (on the drainer) and the symbolizer look at that path for the library, find a
  // FIFO, and go on without its symbols; SIGINT ends the run as always.
  const std::string library = Path("libplanted.so");
  ASSERT_EQ(system(("cp " + std::string(ALPHA_LIBRARY_PATH) + " " + library).c_str()), 0);
  Started pmsample = Start("--period 1000000 -q --call-graph dwarf --folded " + Path("f.txt") +
                           " -- " + DLOPEN_WORKLOAD_PATH + " fifo " + library + " 30");
  std::string out;
  const bool planted = WaitFor(pmsample, "planted", &out);
  // Samples after the FIFO's arrival, drained (a quarter of a CPU's ring: ~60 of them).
  if (planted) usleep(500000);
  kill(pmsample.pid, SIGINT);
  Outcome run = Finish(pmsample, out, 60);
  ASSERT_TRUE(planted) << run.out;
  struct stat info;
  ASSERT_EQ(stat(library.c_str(), &info), 0);
  EXPECT_TRUE(S_ISFIFO(info.st_mode));
  // The command's status, as pmsample gives it: killed by SIGINT (not pmsample by SIGKILL).
  EXPECT_EQ(run.status, 128 + SIGINT) << run.out;
}

TEST_F(PmsampleMappings, ManyProcessesOfOneProgramDoNotGrowItsMemory) {
  // Each process image is symbolized, every one over the same files (the program, libc,
  // ld.so): their tables are made once, so 16 processes take about what 2 take.
  long peak_kb[2] = {};
  const int processes[2] = {2, 16};
  for (int i = 0; i < 2; ++i) {
    Outcome run = Pmsample("--period 1000000 -q --folded " + Path("f.txt") +
                           " -- sh -c 'for i in $(seq " + std::to_string(processes[i]) + "); do " +
                           SAMPLER_WORKLOAD_PATH + " hot 0.03; done'");
    ASSERT_EQ(run.status, 0) << run.out;
    std::map<std::string, long> samples = SamplesByFunction(Path("f.txt"));
    EXPECT_GT(samples["hot_loop"], processes[i] * 10) << ReadFile(Path("f.txt"));
    peak_kb[i] = run.max_rss_kb;
  }
  // Under 2 MiB per process more (each image's own tables took ~17 MiB).
  EXPECT_LT(peak_kb[1] - peak_kb[0], 14 * 2048)
      << peak_kb[0] << " KiB for 2 processes, " << peak_kb[1] << " KiB for 16";
}

}  // namespace
