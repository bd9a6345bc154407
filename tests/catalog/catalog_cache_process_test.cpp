// SPDX-License-Identifier: MIT
// The catalog cache as processes meet it: the first pm_initialize of a user writes one file in
// $XDG_RUNTIME_DIR, later processes use it without writing again, and without a usable
// directory pm_initialize works the same, only without a cache. Each pm_initialize runs in a
// forked child (the catalog is built once per process) with the environment the case sets up.
#include <dirent.h>
#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <string>
#include <vector>

#include "base/settings.h"
#include "pmapi.h"
#include "support/scratch_dir.h"

namespace {

constexpr unsigned kChildSeconds = 60;

std::vector<std::string> Names(const std::string &dir) {
  std::vector<std::string> names;
  if (DIR *listing = opendir(dir.c_str())) {
    while (dirent *entry = readdir(listing)) {
      std::string name = entry->d_name;
      if (name != "." && name != "..") names.push_back(name);
    }
    closedir(listing);
  }
  std::sort(names.begin(), names.end());
  return names;
}

// pm_initialize in a child with XDG_RUNTIME_DIR as given ("" unsets it) and PMAPI_NO_CACHE
// unset unless `no_cache`; its return code, or -1 when the child did not return.
// `temp_dir`, when not "", is set as TMPDIR.
int InitializeInChild(const std::string &runtime_dir, bool no_cache = false,
                      const std::string &temp_dir = "") {
  pid_t pid = fork();
  if (pid == 0) {
    alarm(kChildSeconds);
    pmapi::ChangeSettings([&](pmapi::Settings *settings) {
      settings->no_cache = no_cache;
      settings->runtime_dir = runtime_dir;
      if (!temp_dir.empty()) settings->temp_dir = temp_dir;
    });
    pm_info2_t info;
    _exit(pm_initialize(PM_VERIFIED | PM_UNVERIFIED | PM_CAVEAT, &info, nullptr, PM_CURRENT));
  }
  int status = 0;
  if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status)) return -1;
  return WEXITSTATUS(status);
}

class CatalogCacheProcess : public ::testing::Test {
 protected:
  pmapi_test::ScratchDir scratch_{"pmapi-cache-process-"};
  std::string dir_ = scratch_.path();
  const std::string file_ = "libpmapi-catalog-" + std::to_string(geteuid()) + ".bin";
};

TEST_F(CatalogCacheProcess, FirstProcessWritesOneFileLaterOnesOnlyReadIt) {
  ASSERT_EQ(InitializeInChild(dir_), 0);
  ASSERT_EQ(Names(dir_), std::vector<std::string>{file_});
  struct stat first;
  ASSERT_EQ(stat((dir_ + "/" + file_).c_str(), &first), 0);
  EXPECT_EQ(first.st_mode & 0777, 0600u);
  EXPECT_EQ(first.st_uid, geteuid());
  EXPECT_GT(first.st_size, 1000);
  for (int i = 0; i < 3; ++i) ASSERT_EQ(InitializeInChild(dir_), 0);
  struct stat later;
  ASSERT_EQ(stat((dir_ + "/" + file_).c_str(), &later), 0);
  EXPECT_EQ(later.st_ino, first.st_ino) << "a hit rewrites nothing";
  EXPECT_EQ(Names(dir_), std::vector<std::string>{file_});
}

TEST_F(CatalogCacheProcess, ConcurrentFirstProcessesLeaveOneIntactFile) {
  // As when the ranks of a job start at once on a fresh node: each misses, builds and stores.
  constexpr int kProcesses = 4;
  std::vector<pid_t> children;
  for (int i = 0; i < kProcesses; ++i) {
    pid_t pid = fork();
    if (pid == 0) _exit(InitializeInChild(dir_) == 0 ? 0 : 1);
    children.push_back(pid);
  }
  for (pid_t pid : children) {
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }
  EXPECT_EQ(Names(dir_), std::vector<std::string>{file_}) << "no temporary file left";
  struct stat before;
  ASSERT_EQ(stat((dir_ + "/" + file_).c_str(), &before), 0);
  ASSERT_EQ(InitializeInChild(dir_), 0);
  struct stat after;
  ASSERT_EQ(stat((dir_ + "/" + file_).c_str(), &after), 0);
  EXPECT_EQ(after.st_ino, before.st_ino) << "the file left is intact: it is used, not replaced";
}

TEST_F(CatalogCacheProcess, NoUsableDirectoryMeansNoCacheAndNoError) {
  EXPECT_EQ(InitializeInChild(dir_ + "/missing"), 0);
  EXPECT_TRUE(Names(dir_).empty()) << "no directory is made";
  EXPECT_EQ(InitializeInChild(dir_, /*no_cache=*/true), 0);
  EXPECT_TRUE(Names(dir_).empty()) << "PMAPI_NO_CACHE writes nothing";
  ASSERT_EQ(chmod(dir_.c_str(), 0500), 0);
  EXPECT_EQ(InitializeInChild(dir_), 0);
  if (geteuid() != 0) {
    EXPECT_TRUE(Names(dir_).empty()) << "a read-only directory";
  }
  ASSERT_EQ(chmod(dir_.c_str(), 0700), 0);
}

// Without a runtime directory (root in a container, cron, a batch job): the library's private
// directory under TMPDIR holds the cache, and a link there is refused without harm.
TEST_F(CatalogCacheProcess, WithoutRuntimeDirectoryThePrivateOneUnderTmpdirHoldsTheCache) {
  const std::string login = "/run/user/" + std::to_string(geteuid());
  if (access(login.c_str(), F_OK) == 0) GTEST_SKIP() << login << " exists: it is used instead";
  const std::string own = dir_ + "/libpmapi-" + std::to_string(geteuid());
  ASSERT_EQ(InitializeInChild("", false, dir_), 0);
  struct stat info;
  ASSERT_EQ(lstat(own.c_str(), &info), 0);
  EXPECT_TRUE(S_ISDIR(info.st_mode));
  EXPECT_EQ(info.st_mode & 0777, 0700u);
  ASSERT_EQ(Names(own), std::vector<std::string>{file_});
  struct stat first;
  ASSERT_EQ(stat((own + "/" + file_).c_str(), &first), 0);
  EXPECT_EQ(first.st_mode & 0777, 0600u);
  ASSERT_EQ(InitializeInChild("", false, dir_), 0);
  struct stat later;
  ASSERT_EQ(stat((own + "/" + file_).c_str(), &later), 0);
  EXPECT_EQ(later.st_ino, first.st_ino) << "the second process read it: a hit rewrites nothing";

  // Replaced by a link to a directory of ours: not followed, no cache, pm_initialize works.
  const std::string target = dir_ + "/target";
  ASSERT_EQ(rename(own.c_str(), target.c_str()), 0);
  ASSERT_EQ(symlink(target.c_str(), own.c_str()), 0);
  ASSERT_EQ(unlink((target + "/" + file_).c_str()), 0);
  EXPECT_EQ(InitializeInChild("", false, dir_), 0);
  EXPECT_TRUE(Names(target).empty()) << "nothing written through the link";
}

}  // namespace
