// SPDX-License-Identifier: MIT
// Run-time table directories hold whatever their owner put there: a FIFO, a link to
// /dev/zero, a 100 GB sparse file, a formula nested 200,000 deep. Each is refused with
// Pmapi_BadCatalog naming the file (and line), and never hangs, aborts or overflows the stack.
// Every load runs in a forked child under alarm(), so that a regression fails instead of
// hanging the suite.
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "base/settings.h"
#include "base/status.h"
#include "catalog/group_formula.h"
#include "catalog/tables.h"
#include "pmapi.h"
#include "support/table_dir.h"

namespace {

using pmapi::Status;

constexpr unsigned kChildSeconds = 30;

// How a child run ended: what `body` returned, or how the child died.
struct ChildOutcome {
  bool returned = false;  // false: killed (SIGALRM: it hung; SIGSEGV, SIGABRT: it crashed)
  int signal = 0;
  int code = 0;
  std::string detail;
};

int CountDescriptors() {
  int count = 0;
  if (DIR *dir = opendir("/proc/self/fd")) {
    while (readdir(dir)) ++count;
    closedir(dir);
  }
  return count;
}

// Runs `body` in a forked child that is killed after kChildSeconds. A body that leaves a
// descriptor open returns code -2 instead of its own.
ChildOutcome InChild(const std::function<Status()> &body) {
  int pipe_fds[2];
  if (pipe(pipe_fds) != 0) return {};
  pid_t pid = fork();
  if (pid == 0) {
    close(pipe_fds[0]);
    alarm(kChildSeconds);
    int descriptors = CountDescriptors();
    Status status = body();
    if (CountDescriptors() != descriptors) status = Status(-2, "a descriptor leaked");
    std::string message = std::to_string(status.code()) + "\n" + status.detail();
    ssize_t written = write(pipe_fds[1], message.data(), message.size());
    _exit(written == static_cast<ssize_t>(message.size()) ? 0 : 1);
  }
  close(pipe_fds[1]);
  std::string message;
  char buffer[4096];
  for (;;) {
    ssize_t n = read(pipe_fds[0], buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    message.append(buffer, static_cast<size_t>(n));
  }
  close(pipe_fds[0]);
  int wait_status = 0;
  waitpid(pid, &wait_status, 0);
  ChildOutcome outcome;
  if (WIFSIGNALED(wait_status)) {
    outcome.signal = WTERMSIG(wait_status);
    return outcome;
  }
  size_t newline = message.find('\n');
  if (!WIFEXITED(wait_status) || WEXITSTATUS(wait_status) != 0 || newline == std::string::npos) {
    return outcome;
  }
  outcome.returned = true;
  outcome.code = atoi(message.c_str());
  outcome.detail = message.substr(newline + 1);
  return outcome;
}

std::string Describe(const ChildOutcome &outcome) {
  if (outcome.returned) return "returned " + std::to_string(outcome.code) + ": " + outcome.detail;
  if (outcome.signal == SIGALRM)
    return "hung (killed after " + std::to_string(kChildSeconds) + " s)";
  return "died of " + std::string(outcome.signal ? strsignal(outcome.signal) : "an exit");
}

Status LoadEvents() {
  std::vector<pmapi::TableRecord> records;
  Status status = pmapi::LoadEventTables(&records);
  // A bad file contributes nothing, the good files still load.
  bool site_loaded = false;
  for (const pmapi::TableRecord &record : records) site_loaded |= record.id == 50000;
  if (status.ok() || !site_loaded) return Status(-1, "site.tbl not loaded; " + status.detail());
  return status;
}

Status LoadGroups() {
  std::vector<pmapi::GroupRecord> records;
  return pmapi::LoadGroupTables(&records);
}

// A scratch directory named by both table variables, holding one good event table.
class catalog_table_files : public pmapi_test::TableDirTest {
 protected:
  catalog_table_files() : TableDirTest({pmapi::kEventsDirVariable, pmapi::kGroupsDirVariable}) {}
  void SetUp() override {
    TableDirTest::SetUp();
    Write("site.tbl", "50000 | pm_site | Site | exact | p::X | A site event.\n");
  }

  // `why` follows the file name: ": what" or ":line: what".
  void ExpectRefused(const std::function<Status()> &load, const std::string &file,
                     const std::string &why) {
    ChildOutcome outcome = InChild(load);
    ASSERT_TRUE(outcome.returned) << Describe(outcome);
    EXPECT_EQ(outcome.code, Pmapi_BadCatalog) << Describe(outcome);
    EXPECT_EQ(outcome.detail.rfind(Path(file) + why, 0), 0u) << outcome.detail;
  }
};

TEST_F(catalog_table_files, FifoIsRefusedWithoutWaitingForAWriter) {
  ASSERT_EQ(mkfifo(Path("a.tbl").c_str(), 0600), 0);
  ExpectRefused(LoadEvents, "a.tbl", ": is a FIFO, not a regular file");
  ASSERT_EQ(mkfifo(Path("a.grp").c_str(), 0600), 0);
  ExpectRefused(LoadGroups, "a.grp", ": is a FIFO, not a regular file");
}

TEST_F(catalog_table_files, DirectoryVariableNamingAFifoIsRefused) {
  ASSERT_EQ(mkfifo(Path("fifo").c_str(), 0600), 0);
  pmapi::SetSetting(pmapi::kEventsDirVariable, Path("fifo").c_str());
  ChildOutcome outcome = InChild([] {
    std::vector<pmapi::TableRecord> records;
    return pmapi::LoadEventTables(&records);
  });
  ASSERT_TRUE(outcome.returned) << Describe(outcome);
  EXPECT_EQ(outcome.code, Pmapi_BadCatalog);
  EXPECT_NE(outcome.detail.find("cannot list the directory: Not a directory"), std::string::npos)
      << outcome.detail;
}

TEST_F(catalog_table_files, LinkToDevZeroIsRefused) {
  ASSERT_EQ(symlink("/dev/zero", Path("zero.tbl").c_str()), 0);
  ExpectRefused(LoadEvents, "zero.tbl", ": is a character device, not a regular file");
  ASSERT_EQ(symlink("/dev/zero", Path("zero.grp").c_str()), 0);
  ExpectRefused(LoadGroups, "zero.grp", ": is a character device, not a regular file");
}

TEST_F(catalog_table_files, FileOverTheCapIsRefusedUnread) {
  for (off_t size : {static_cast<off_t>(pmapi::kLargestTableFile) + 1, off_t{100} << 30}) {
    int fd = open(Path("huge.tbl").c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    ASSERT_GE(fd, 0);
    ASSERT_EQ(ftruncate(fd, size), 0) << strerror(errno);  // sparse: no disk used
    close(fd);
    ExpectRefused(LoadEvents, "huge.tbl",
                  ": is " + std::to_string(size) + " bytes, more than the " +
                      std::to_string(pmapi::kLargestTableFile) + " bytes a table file may have");
  }
}

TEST_F(catalog_table_files, FileAtTheCapIsRead) {
  // Exactly kLargestTableFile bytes of comment lines: read whole, and nothing in it.
  std::string line(1023, '#');
  line += '\n';
  std::ofstream out(Path("big.tbl"));
  for (size_t i = 0; i < pmapi::kLargestTableFile / line.size(); ++i) out << line;
  out.close();
  ChildOutcome outcome = InChild([] {
    std::vector<pmapi::TableRecord> records;
    return pmapi::LoadEventTables(&records);
  });
  ASSERT_TRUE(outcome.returned) << Describe(outcome);
  EXPECT_EQ(outcome.code, 0) << outcome.detail;
}

TEST_F(catalog_table_files, LinkToARegularFileIsFollowed) {
  // pmcount links the user's tables into a directory of its own: a link to a regular file
  // reads as that file.
  std::ofstream(Path("elsewhere.txt")) << "50001 | pm_linked | Linked | exact | p::Y | d\n";
  ASSERT_EQ(symlink(Path("elsewhere.txt").c_str(), Path("linked.tbl").c_str()), 0);
  std::vector<pmapi::TableRecord> records;
  Status status = pmapi::LoadEventTables(&records);
  ASSERT_TRUE(status.ok()) << status.detail();
  bool linked = false;
  for (const pmapi::TableRecord &record : records) linked |= record.short_name == "pm_linked";
  EXPECT_TRUE(linked);
}

TEST_F(catalog_table_files, DirectoryNamedLikeATableIsRefused) {
  ASSERT_EQ(mkdir(Path("d.tbl").c_str(), 0700), 0);
  ExpectRefused(LoadEvents, "d.tbl", ": is a directory, not a regular file");
}

std::string Nested(size_t depth, const std::string &inner) {
  return std::string(depth, '(') + inner + std::string(depth, ')');
}

TEST(catalog_formula_depth, NestingIsBoundedAndReported) {
  std::vector<std::string> members = {"a", "b"};
  pmapi::Formula formula;
  EXPECT_EQ(pmapi::Formula::Parse(Nested(pmapi::kFormulaMaxDepth, "a / b"), members, &formula), "");
  EXPECT_EQ(formula.Evaluate({6, 3}, 1), 2);
  std::string minus(pmapi::kFormulaMaxDepth, '-');
  EXPECT_EQ(pmapi::Formula::Parse(minus + "a", members, &formula), "");
  EXPECT_EQ(formula.Evaluate({6, 3}, 1), 6) << "an even number of minus signs";
  const std::string too_deep =
      "at character 65: nested more than 64 deep (parentheses and "
      "unary minus signs)";
  EXPECT_EQ(pmapi::Formula::Parse(Nested(pmapi::kFormulaMaxDepth + 1, "a"), members, &formula),
            too_deep);
  EXPECT_EQ(pmapi::Formula::Parse(minus + "-a", members, &formula), too_deep);
  EXPECT_NE(pmapi::Formula::Parse("(-(" + std::string(100, '-') + "a))", members, &formula)
                .find("nested more than 64 deep"),
            std::string::npos)
      << "parentheses and minus signs count together";
}

TEST_F(catalog_table_files, FormulaNested200000DeepIsRefusedWithFileAndLine) {
  std::ofstream(Path("deep.grp")) << "# a hostile table\n50000 | pm_deep | Deep | d\n"
                                  << "events task-clock\nmetric M = "
                                  << Nested(200000, "task-clock") << "\n";
  ExpectRefused(LoadGroups, "deep.grp",
                ":4: metric 'M': at character 65: nested more than 64 deep");
  std::ofstream(Path("deep.grp")) << "50000 | pm_deep | Deep | d\nevents task-clock\nmetric M = "
                                  << std::string(200000, '-') << "task-clock\n";
  ExpectRefused(LoadGroups, "deep.grp", ":3: metric 'M': at character 65: nested more than 64");
}

TEST_F(catalog_table_files, PmInitializeReportsInsteadOfHangingOrCrashing) {
  ASSERT_EQ(mkfifo(Path("a.tbl").c_str(), 0600), 0);
  std::ofstream(Path("deep.grp")) << "50000 | pm_deep | Deep | d\nevents task-clock\nmetric M = "
                                  << Nested(200000, "task-clock") << "\n";
  pmapi::SetSetting("PMAPI_NO_CACHE", "1");
  for (int filter : {PM_VERIFIED | PM_UNVERIFIED | PM_CAVEAT,
                     PM_VERIFIED | PM_UNVERIFIED | PM_CAVEAT | PM_GET_GROUPS}) {
    ChildOutcome outcome = InChild([filter] {
      pm_info2_t info;
      pm_groups_info_t groups;
      int rc = pm_initialize(filter, &info, &groups, PM_CURRENT);
      return Status(rc, rc ? pm_strerror("init", rc) : "");
    });
    ASSERT_TRUE(outcome.returned) << "filter " << filter << ": " << Describe(outcome);
    EXPECT_EQ(outcome.code, Pmapi_BadCatalog) << outcome.detail;
    EXPECT_NE(outcome.detail.find(Path("a.tbl") + ": is a FIFO"), std::string::npos)
        << outcome.detail;
  }
  ASSERT_EQ(unlink(Path("a.tbl").c_str()), 0);
  ChildOutcome outcome = InChild([] {
    pm_info2_t info;
    pm_groups_info_t groups;
    int rc = pm_initialize(PM_VERIFIED | PM_UNVERIFIED | PM_CAVEAT | PM_GET_GROUPS, &info, &groups,
                           PM_CURRENT);
    return Status(rc, rc ? pm_strerror("init", rc) : "");
  });
  ASSERT_TRUE(outcome.returned) << Describe(outcome);
  EXPECT_EQ(outcome.code, Pmapi_BadCatalog) << outcome.detail;
  EXPECT_NE(outcome.detail.find(Path("deep.grp") + ":3: metric 'M'"), std::string::npos)
      << outcome.detail;
  pmapi::SetSetting("PMAPI_NO_CACHE", "");
}

}  // namespace
