// SPDX-License-Identifier: MIT
// What cpuperf writes and when: never through a link another user planted (it may run as
// root), into the current directory by default, checked before the command runs, and still
// written when a signal stops the run. The file writer alone is tested with the other tools'
// (tests/tools/output_file_test.cpp).
#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <fstream>

#include "perfmon_test_helpers.h"
#include "support/read_text.h"
#include "support/scratch_dir.h"

namespace perfmon_test {
namespace {

using pmapi_test::ReadText;

bool Exists(const std::string &path) {
  struct stat found;
  return lstat(path.c_str(), &found) == 0;
}

class Outputs : public ::testing::Test {
 protected:
  void SetUp() override { std::ofstream(victim_) << "precious\n"; }
  // Runs `cd DIR && cpuperf ARGS`; the status, stderr in err_.
  int Run(const std::string &args) {
    const std::string command = "cd '" + dir_ + "' && " + CPUPERF_PATH + " " + args + " >" + dir_ +
                                "/out 2>" + dir_ + "/err";
    int status = system(command.c_str());
    err_ = ReadText(dir_ + "/err");
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  std::string Marker() { return dir_ + "/ran"; }
  std::string CommandThatMarks() { return " -- touch " + Marker(); }
  pmapi_test::ScratchDir scratch_{"cpuperf_outputs."};
  std::string dir_ = scratch_.path(), victim_ = dir_ + "/victim", err_;
};

TEST_F(Outputs, APlantedLinkAtAnOutputIsRefusedBeforeTheCommandRunsAndTheVictimIsUnchanged) {
  // Another user's link, as planted in /tmp; root's or one's own would be followed.
  if (geteuid() != 0) GTEST_SKIP() << "needs root, to plant a link owned by another user";
  const std::string outputs[] = {"trace.0.0.cpuperf", "trace.cpsession", "chrome.json"};
  for (const std::string &name : outputs) {
    const std::string link = dir_ + "/" + name;
    ASSERT_EQ(symlink(victim_.c_str(), link.c_str()), 0);
    ASSERT_EQ(lchown(link.c_str(), 65534, 65534), 0);
    int status = Run("--output-prefix=" + dir_ + "/trace --perfetto=" + dir_ +
                     "/chrome.json -e linux:task-clock" + CommandThatMarks());
    EXPECT_EQ(status, 125) << name << ": " << err_;
    EXPECT_NE(err_.find("cannot write " + link + ": it is a symbolic link of user 65534"),
              std::string::npos)
        << err_;
    EXPECT_NE(err_.find("(nothing was run)"), std::string::npos) << err_;
    EXPECT_FALSE(Exists(Marker())) << name;
    EXPECT_EQ(ReadText(victim_), "precious\n") << name;
    ASSERT_EQ(unlink(link.c_str()), 0);
  }
}

TEST_F(Outputs, ALinkOfOnesOwnIsFollowedAndStays) {
  // As every tool's outputs (docs/tools.md, "Output files"): /dev/stdout, a link one made.
  const std::string link = dir_ + "/mine.json", target = dir_ + "/where.json";
  ASSERT_EQ(symlink(target.c_str(), link.c_str()), 0);
  ASSERT_EQ(Run("--quiet --output-prefix=" + dir_ + "/trace --perfetto=" + link +
                " -e linux:task-clock -- true"),
            0)
      << err_;
  EXPECT_NE(ReadText(target).find("traceEvents"), std::string::npos);
  struct stat found;
  ASSERT_EQ(lstat(link.c_str(), &found), 0);
  EXPECT_TRUE(S_ISLNK(found.st_mode));
}

TEST_F(Outputs, WithoutAPrefixTheBuffersGoToTheCurrentDirectory) {
  ASSERT_EQ(Run("--quiet -e linux:task-clock -- true"), 0) << err_;
  EXPECT_TRUE(Exists(dir_ + "/cpuperf.0.0.cpuperf"));
  EXPECT_TRUE(Exists(dir_ + "/cpuperf.cpsession"));
  struct stat found;
  ASSERT_EQ(stat((dir_ + "/cpuperf.cpsession").c_str(), &found), 0);
  const mode_t mask = umask(022);
  umask(mask);
  EXPECT_EQ(found.st_mode & 0777, 0666 & ~mask) << "as any new file under this umask";
}

TEST_F(Outputs, AnUnwritableOutputIsFoundBeforeTheCommandRuns) {
  const struct {
    std::string args, message;
  } cases[] = {
      {"--perfetto=" + dir_ + "/no/such/dir/trace.json",
       "cannot write " + dir_ + "/no/such/dir/trace.json: No such file or directory (making a " +
           "file in " + dir_ + "/no/such/dir)"},
      {"--output-prefix=" + dir_ + "/missing/trace",
       "cannot write " + dir_ + "/missing/trace.cpsession: No such file or directory"},
      {"--session-result=" + dir_, "cannot write " + dir_ + ": it is a directory"},
  };
  for (const auto &c : cases) {
    EXPECT_EQ(Run(c.args + " -e linux:task-clock" + CommandThatMarks()), 125) << c.args;
    EXPECT_NE(err_.find(c.message), std::string::npos) << err_;
    EXPECT_FALSE(Exists(Marker())) << c.args;
  }
}

TEST_F(Outputs, AnOutputLostAfterTheCommandRanKeepsItsStatusAndTheTallies) {
  // /dev/full passes the check (a device is written in place) and then refuses every byte.
  EXPECT_EQ(Run("--output-prefix=" + dir_ +
                "/trace --perfetto=/dev/full -e linux:task-clock -- sh -c 'exit 3'"),
            3)
      << err_;
  EXPECT_NE(err_.find("cpuperf: cannot write /dev/full: No space left on device"),
            std::string::npos)
      << err_;
  EXPECT_NE(ReadText(dir_ + "/out").find("Total:"), std::string::npos);
  EXPECT_TRUE(Exists(dir_ + "/trace.cpsession"));
  // Without a command the loss is cpuperf's failure.
  if (geteuid() == 0) {
    EXPECT_EQ(Run("--output-prefix=" + dir_ +
                  "/trace --perfetto=/dev/full -e linux:task-clock "
                  "--duration=0.01"),
              125)
        << err_;
  }
}

// The Total line of a tally.
std::string TotalLine(const std::string &out) {
  const size_t at = out.find("Total:");
  return at == std::string::npos ? "" : out.substr(at, out.find('\n', at) - at);
}

TEST_F(Outputs, ASignalStopsTheCommandAndTheTraceIsStillSaved) {
  // The command makes 500 calls, says so, then sleeps. The shell makes calls of its own (dash
  // reads $PPID): a run that sleeps 0 gives the total to expect.
  const std::string pid_file = dir_ + "/pid", ready = dir_ + "/ready";
  auto script = [&](int seconds) {
    return std::string(GETPPID_CALLS_PATH) + " 500 && echo $$ >" + pid_file + " && touch " + ready +
           " && exec sleep " + std::to_string(seconds);
  };
  ASSERT_EQ(Run("-e " + std::string(kGetppid) + " -- sh -c '" + script(0) + "'"), 0) << err_;
  const std::string expected = TotalLine(ReadText(dir_ + "/out"));
  ASSERT_NE(expected.find("50"), std::string::npos) << expected;
  for (int sig : {SIGTERM, SIGINT}) {
    unlink(ready.c_str());
    const std::string command_line = script(60);
    pid_t cpuperf = fork();
    if (cpuperf == 0) {
      // In a session of its own: the signal comes from a kill, not a terminal.
      setsid();
      int out = open((dir_ + "/out").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      int err = open((dir_ + "/err").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      dup2(out, 1);
      dup2(err, 2);
      const std::string prefix = "--output-prefix=" + dir_ + "/trace";
      const std::string event = std::string("-e") + kGetppid;
      execl(CPUPERF_PATH, CPUPERF_PATH, prefix.c_str(), event.c_str(), "--", "sh", "-c",
            command_line.c_str(), (char *)nullptr);
      _exit(99);
    }
    ASSERT_GT(cpuperf, 0);
    for (int i = 0; i < 1000 && !Exists(ready); ++i) usleep(10000);
    ASSERT_TRUE(Exists(ready)) << ReadText(dir_ + "/err");
    const pid_t command = atoi(ReadText(pid_file).c_str());
    ASSERT_GT(command, 0);
    ASSERT_EQ(kill(cpuperf, sig), 0);
    int status = 0;
    ASSERT_EQ(waitpid(cpuperf, &status, 0), cpuperf);
    // The command got the signal and died of it; cpuperf passes that on as 128 + N.
    ASSERT_TRUE(WIFEXITED(status)) << "cpuperf died of signal " << WTERMSIG(status);
    EXPECT_EQ(WEXITSTATUS(status), 128 + sig) << ReadText(dir_ + "/err");
    EXPECT_EQ(kill(command, 0), -1) << "the command outlived cpuperf";
    if (kill(command, 0) == 0) kill(command, SIGKILL);  // an orphan: not left behind
    EXPECT_NE(ReadText(dir_ + "/err").find("stopped after 1 of 1 iterations"), std::string::npos)
        << ReadText(dir_ + "/err");
    // Every call was saved: the session result, the buffers and the tally.
    EXPECT_TRUE(Exists(dir_ + "/trace.cpsession"));
    EXPECT_TRUE(Exists(dir_ + "/trace.0.0.cpuperf"));
    EXPECT_EQ(TotalLine(ReadText(dir_ + "/out")), expected) << ReadText(dir_ + "/out");
  }
}

}  // namespace
}  // namespace perfmon_test
