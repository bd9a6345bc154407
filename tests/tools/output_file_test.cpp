// SPDX-License-Identifier: MIT
// The tools' output files (src/tools/common/output_file.h): one policy for pmcount, cpuperf and
// pmsample, which may run as root in a directory others can write. The links "another user"
// plants are made by root and given to uid 65534, so those cases need root.
#include "output_file.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <functional>
#include <sstream>

#include "support/read_text.h"
#include "support/scratch_dir.h"

namespace {

std::string Slurp(const std::string &path) { return pmapi_test::ReadText(path); }

bool IsLink(const std::string &path) {
  struct stat found;
  return lstat(path.c_str(), &found) == 0 && S_ISLNK(found.st_mode);
}

class ToolOutputs : public ::testing::Test {
 protected:
  void SetUp() override {
    victim_ = dir_ + "/victim";
    std::ofstream(victim_) << "precious\n";
  }
  // A link at `path` to `to`, owned by uid 65534 (false when not root: only root can give it).
  bool PlantLink(const std::string &to, const std::string &path) {
    return geteuid() == 0 && symlink(to.c_str(), path.c_str()) == 0 &&
           lchown(path.c_str(), 65534, 65534) == 0;
  }
  // Files in the directory whose names start with '.': temporaries left behind.
  std::string Hidden() {
    FILE *ls = popen(("ls -A '" + dir_ + "' | grep '^\\.'").c_str(), "r");
    char buffer[256] = "";
    const size_t n = fread(buffer, 1, sizeof buffer - 1, ls);
    pclose(ls);
    return std::string(buffer, n);
  }
  pmapi_test::ScratchDir scratch_{"tool_outputs."};
  std::string dir_ = scratch_.path(), victim_;
};

TEST_F(ToolOutputs, AnotherUsersLinkIsRefusedNamingThePathAndTheOwner) {
  const std::string link = dir_ + "/out";
  if (!PlantLink(victim_, link)) GTEST_SKIP() << "needs root, to plant another user's link";
  const std::string expected = "cannot write " + link + ": it is a symbolic link of user 65534";
  EXPECT_EQ(tools::CheckOutputFile(link).rfind(expected, 0), 0u) << tools::CheckOutputFile(link);
  tools::OutputFile whole, stream;
  EXPECT_EQ(whole.Open(link).rfind(expected, 0), 0u);
  EXPECT_EQ(stream.OpenStream(link).rfind(expected, 0), 0u);
  EXPECT_NE(tools::WriteOutputFile(link, "x", 1).find("not yours"), std::string::npos);
  EXPECT_EQ(Slurp(victim_), "precious\n");
  EXPECT_TRUE(IsLink(link)) << "a refused link is left as it was";
  EXPECT_EQ(Hidden(), "");
}

TEST_F(ToolOutputs, AnotherUsersLinkBehindOneOfYoursIsRefused) {
  // Every link of the chain is checked, not only the first.
  const std::string planted = dir_ + "/planted", mine = dir_ + "/mine";
  if (!PlantLink(victim_, planted)) GTEST_SKIP() << "needs root, to plant another user's link";
  ASSERT_EQ(symlink(planted.c_str(), mine.c_str()), 0);
  EXPECT_EQ(tools::WriteOutputFile(mine, "x", 1)
                .rfind("cannot write " + mine + ": it leads to " + planted +
                           ", a symbolic link of user 65534",
                       0),
            0u);
  tools::OutputFile stream;
  EXPECT_NE(stream.OpenStream(mine), "");
  EXPECT_EQ(Slurp(victim_), "precious\n");
  // And a device behind it is not written in place either.
  ASSERT_EQ(unlink(planted.c_str()), 0);
  ASSERT_TRUE(PlantLink("/dev/null", planted));
  EXPECT_NE(tools::CheckOutputFile(mine), "");
}

TEST_F(ToolOutputs, YourOwnLinkIsFollowedAndStays) {
  const std::string link = dir_ + "/link", target = dir_ + "/target";
  ASSERT_EQ(symlink("target", link.c_str()), 0);  // relative: to the link's directory
  EXPECT_EQ(tools::CheckOutputFile(link), "");
  EXPECT_EQ(tools::WriteOutputFile(link, "whole\n", 6), "");
  EXPECT_EQ(Slurp(target), "whole\n");
  EXPECT_TRUE(IsLink(link));
  tools::OutputFile stream;
  ASSERT_EQ(stream.OpenStream(link), "");
  EXPECT_EQ(Slurp(target), "") << "truncated when opened";
  ASSERT_EQ(write(stream.fd(), "streamed\n", 9), 9);
  EXPECT_EQ(Slurp(target), "streamed\n") << "written as it goes, before Commit";
  EXPECT_EQ(stream.Commit(), "");
  EXPECT_TRUE(IsLink(link));
  EXPECT_EQ(Hidden(), "");
}

TEST_F(ToolOutputs, ALinkPlantedWhileWritingIsReplacedNotFollowed) {
  const std::string path = dir_ + "/late.json";
  tools::OutputFile file;
  ASSERT_EQ(file.Open(path), "");
  fputs("{}\n", file.stream());
  ASSERT_EQ(symlink(victim_.c_str(), path.c_str()), 0);
  ASSERT_EQ(file.Commit(), "");
  EXPECT_EQ(Slurp(victim_), "precious\n");
  EXPECT_EQ(Slurp(path), "{}\n");
  EXPECT_FALSE(IsLink(path));
  EXPECT_EQ(Hidden(), "");
}

TEST_F(ToolOutputs, AWholeFileNotCommittedLeavesTheOldOneAndNoTemporary) {
  {
    tools::OutputFile file;
    ASSERT_EQ(file.Open(victim_), "");
    ASSERT_EQ(file.Write("half", 4), "");
    EXPECT_NE(Hidden(), "") << "the new file is beside the old one until committed";
  }
  EXPECT_EQ(Slurp(victim_), "precious\n");
  EXPECT_EQ(Hidden(), "");
  // Committed: the new content, as a new file of mode 0666 less the umask.
  ASSERT_EQ(tools::WriteOutputFile(victim_, "new\n", 4), "");
  EXPECT_EQ(Slurp(victim_), "new\n");
  struct stat found;
  ASSERT_EQ(stat(victim_.c_str(), &found), 0);
  const mode_t mask = umask(022);
  umask(mask);
  EXPECT_EQ(found.st_mode & 0777, 0666 & ~mask);
}

TEST_F(ToolOutputs, WhatCannotBeWrittenSaysWhy) {
  EXPECT_EQ(tools::CheckOutputFile(dir_), "cannot write " + dir_ + ": it is a directory");
  const std::string missing = dir_ + "/no/such/file";
  EXPECT_EQ(tools::CheckOutputFile(missing), "cannot write " + missing +
                                                 ": No such file or directory (making a file in " +
                                                 dir_ + "/no/such)");
  tools::OutputFile stream;
  EXPECT_EQ(stream.OpenStream(missing), "cannot write " + missing + ": No such file or directory");
  EXPECT_EQ(tools::CheckOutputFile(""), "cannot write an output: its path is empty");
  // A device passes the check and fails when written: the loss is reported by Commit.
  tools::OutputFile full;
  ASSERT_EQ(full.Open("/dev/full"), "");
  ASSERT_EQ(full.Write("x", 1), "");
  EXPECT_EQ(full.Commit(), "cannot write /dev/full: No space left on device");
}

TEST_F(ToolOutputs, AnotherUsersFileInAStickyDirectoryIsRefusedBeforeTheRun) {
  // As /tmp: anyone may make the new file, but only the old one's owner may rename over it, so
  // the rename after the run would fail. Asked as uid 65534 about root's file.
  if (geteuid() != 0) GTEST_SKIP() << "needs root, to ask as another user";
  ASSERT_EQ(chmod(dir_.c_str(), 01777), 0);
  int answer[2];
  ASSERT_EQ(pipe(answer), 0);
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    if (setgid(65534) != 0 || setuid(65534) != 0) _exit(1);
    const std::string error = tools::CheckOutputFile(victim_);
    _exit(write(answer[1], error.data(), error.size()) == static_cast<ssize_t>(error.size()) ? 0
                                                                                             : 1);
  }
  close(answer[1]);
  char buffer[512] = "";
  const ssize_t n = read(answer[0], buffer, sizeof buffer);
  close(answer[0]);
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  EXPECT_EQ(std::string(buffer, n > 0 ? n : 0),
            "cannot write " + victim_ +
                ": it is the file of user 0 (root), in a sticky directory where only they may "
                "replace it");
  EXPECT_EQ(Slurp(victim_), "precious\n");
}

TEST_F(ToolOutputs, DevicesAndFifosAreWrittenInPlace) {
  EXPECT_EQ(tools::WriteOutputFile("/dev/null", "x", 1), "");
  struct stat found;
  ASSERT_EQ(stat("/dev/null", &found), 0);
  EXPECT_TRUE(S_ISCHR(found.st_mode));
  const std::string fifo = dir_ + "/fifo";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  const int reader = open(fifo.c_str(), O_RDONLY | O_NONBLOCK);
  ASSERT_GE(reader, 0);
  EXPECT_EQ(tools::WriteOutputFile(fifo, "through\n", 8), "");
  char buffer[16] = "";
  EXPECT_EQ(read(reader, buffer, sizeof buffer), 8);
  EXPECT_EQ(std::string(buffer, 8), "through\n");
  close(reader);
}

// Runs `open` in a child that an alarm ends if it waits, so that a test of "never blocks"
// fails rather than hangs: the child's answer, or "it waited" when it had to be stopped.
std::string WithoutWaiting(const std::function<std::string()> &open) {
  int answer[2];
  if (pipe(answer) != 0) return "no pipe";
  const pid_t child = fork();
  if (child == 0) {
    close(answer[0]);
    alarm(10);
    const std::string error = open();
    _exit(write(answer[1], error.data(), error.size()) == static_cast<ssize_t>(error.size()) ? 0
                                                                                             : 1);
  }
  close(answer[1]);
  std::string error;
  char buffer[512];
  for (ssize_t n; (n = read(answer[0], buffer, sizeof buffer)) > 0;) error.append(buffer, n);
  close(answer[0]);
  int status = 0;
  waitpid(child, &status, 0);
  return WIFSIGNALED(status) ? "it waited" : error;
}

TEST_F(ToolOutputs, AnotherUsersFifoInAStickyDirectoryIsRefused) {
  // As in /tmp, where anyone may make a FIFO at the path root's tool will write: its owner
  // would read what root writes, or hold root's tool waiting before its command runs.
  if (geteuid() != 0) GTEST_SKIP() << "needs root, to plant another user's FIFO";
  ASSERT_EQ(chmod(dir_.c_str(), 01777), 0);
  const std::string fifo = dir_ + "/counts.txt";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0666), 0);
  ASSERT_EQ(chown(fifo.c_str(), 65534, 65534), 0);
  const int reader = open(fifo.c_str(), O_RDONLY | O_NONBLOCK);  // its owner, reading
  ASSERT_GE(reader, 0);
  const std::string expected = "cannot write " + fifo + ": it is a FIFO of user 65534";
  EXPECT_EQ(tools::CheckOutputFile(fifo).rfind(expected, 0), 0u) << tools::CheckOutputFile(fifo);
  EXPECT_EQ(WithoutWaiting([&] {
              return tools::WriteOutputFile(fifo, "secret\n", 7);
            }).rfind(expected, 0),
            0u);
  EXPECT_EQ(WithoutWaiting([&] {
              tools::OutputFile stream;
              return stream.OpenStream(fifo);
            }).rfind(expected, 0),
            0u);
  char buffer[16];
  EXPECT_LE(read(reader, buffer, sizeof buffer), 0) << "nothing reached the FIFO's owner";
  // One the caller holds open already (a shell's redirection: /dev/fd/N) is their choice.
  const int writer = open(fifo.c_str(), O_WRONLY | O_NONBLOCK);
  ASSERT_GE(writer, 0);
  EXPECT_EQ(tools::WriteOutputFile("/dev/fd/" + std::to_string(writer), "chosen\n", 7), "");
  close(writer);
  EXPECT_EQ(read(reader, buffer, sizeof buffer), 7);
  close(reader);
  // Behind a link of one's own, too.
  const std::string mine = dir_ + "/mine";
  ASSERT_EQ(symlink(fifo.c_str(), mine.c_str()), 0);
  EXPECT_EQ(tools::CheckOutputFile(mine).rfind(
                "cannot write " + mine + ": it leads to " + fifo + ", a FIFO of user 65534", 0),
            0u)
      << tools::CheckOutputFile(mine);
  // The caller's own regular file in the same directory is written as ever.
  const std::string own = dir_ + "/own.txt";
  std::ofstream(own) << "old\n";
  EXPECT_EQ(tools::WriteOutputFile(own, "new\n", 4), "");
  EXPECT_EQ(Slurp(own), "new\n");
  tools::OutputFile stream;
  ASSERT_EQ(stream.OpenStream(own), "");
  ASSERT_EQ(stream.Write("streamed\n", 9), "");
  EXPECT_EQ(stream.Commit(), "");
  EXPECT_EQ(Slurp(own), "streamed\n");
}

TEST_F(ToolOutputs, AFifoThatNoProcessReadsIsRefusedWithoutWaiting) {
  const std::string fifo = dir_ + "/fifo";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  const std::string expected =
      "cannot write " + fifo + ": it is a FIFO that no process reads: start its reader first";
  EXPECT_EQ(WithoutWaiting([&] { return tools::WriteOutputFile(fifo, "x", 1); }), expected);
  EXPECT_EQ(WithoutWaiting([&] {
              tools::OutputFile stream;
              return stream.OpenStream(fifo);
            }),
            expected);
}

TEST_F(ToolOutputs, StandardOutputThroughProcIsWrittenInPlace) {
  // /dev/stdout is root's link to /proc/self/fd/1, and that one leads to "pipe:[N]", which is
  // no path: only the kernel can follow it.
  int pipe_ends[2];
  ASSERT_EQ(pipe(pipe_ends), 0);
  const std::string path = "/dev/fd/" + std::to_string(pipe_ends[1]);
  EXPECT_EQ(tools::CheckOutputFile(path), "");
  EXPECT_EQ(tools::WriteOutputFile(path, "piped\n", 6), "");
  close(pipe_ends[1]);
  char buffer[16] = "";
  EXPECT_EQ(read(pipe_ends[0], buffer, sizeof buffer), 6);
  EXPECT_EQ(std::string(buffer, 6), "piped\n");
  close(pipe_ends[0]);
}

}  // namespace
