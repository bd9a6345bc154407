// The catalog cache never writes in or under another user's directory, follows no link on the
// way to it, and removes nothing outside its own directory: with $XDG_CACHE_HOME or $HOME
// pointing into a tree another user controls (sudo keeping HOME), pm_initialize still succeeds
// and simply uses no cache. Each pm_initialize runs in a forked child (the catalog is built
// once per process), with the environment the case sets up.
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <string>
#include <vector>

#include "pmapi.h"

namespace {

constexpr uid_t kOtherUser = 65534;  // nobody
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

// pm_initialize in a child with XDG_CACHE_HOME and HOME as given ("" unsets); its return
// code, or -1 when the child did not return.
int InitializeInChild(const std::string &xdg_cache_home, const std::string &home) {
  pid_t pid = fork();
  if (pid == 0) {
    alarm(kChildSeconds);
    unsetenv("PMAPI_NO_CACHE");
    if (xdg_cache_home.empty()) {
      unsetenv("XDG_CACHE_HOME");
    } else {
      setenv("XDG_CACHE_HOME", xdg_cache_home.c_str(), 1);
    }
    if (home.empty()) {
      unsetenv("HOME");
    } else {
      setenv("HOME", home.c_str(), 1);
    }
    pm_info2_t info;
    _exit(pm_initialize(PM_VERIFIED | PM_UNVERIFIED | PM_CAVEAT, &info, nullptr, PM_CURRENT));
  }
  int status = 0;
  if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status)) return -1;
  return WEXITSTATUS(status);
}

class catalog_cache_owner : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/pmapi-cache-owner-XXXXXX";
    ASSERT_NE(mkdtemp(pattern), nullptr);
    root_ = pattern;
    // The victim: a directory of ours holding files named like old cache files, which a
    // cache write there would remove (it keeps only the newest few).
    victim_ = root_ + "/victim";
    ASSERT_EQ(mkdir(victim_.c_str(), 0755), 0);
    for (int age = 1; age <= 6; ++age) {
      std::string path = victim_ + "/catalog-000000000000000" + std::to_string(age) + ".bin";
      std::ofstream(path) << "precious";
      timeval written = {time(nullptr) - age * 24 * 3600, 0};
      timeval times[2] = {written, written};
      ASSERT_EQ(utimes(path.c_str(), times), 0);
    }
    victim_names_ = Names(victim_);
  }
  void TearDown() override {
    std::string command = "rm -rf '" + root_ + "'";
    ASSERT_EQ(system(command.c_str()), 0);
  }

  // A directory under root_ owned by `owner`.
  std::string MakeDirectory(const std::string &name, uid_t owner, mode_t mode = 0755) {
    std::string path = root_ + "/" + name;
    EXPECT_EQ(mkdir(path.c_str(), mode), 0) << path;
    EXPECT_EQ(chmod(path.c_str(), mode), 0);  // past the umask
    if (owner != geteuid()) {
      EXPECT_EQ(chown(path.c_str(), owner, owner), 0) << strerror(errno);
    }
    return path;
  }
  // A link at `path` to `target`, owned by `owner`.
  void MakeLink(const std::string &target, const std::string &path, uid_t owner) {
    ASSERT_EQ(symlink(target.c_str(), path.c_str()), 0) << path;
    if (owner != geteuid()) {
      ASSERT_EQ(lchown(path.c_str(), owner, owner), 0) << strerror(errno);
    }
  }
  void ExpectVictimUntouched() {
    EXPECT_EQ(Names(victim_), victim_names_) << "nothing written or removed in " << victim_;
  }

  std::string root_;
  std::string victim_;
  std::vector<std::string> victim_names_;
};

TEST_F(catalog_cache_owner, OtherUsersLinkAsTheCacheDirectoryIsNotFollowed) {
  if (geteuid() != 0) GTEST_SKIP() << "a directory of another user needs root to make";
  std::string attacker = MakeDirectory("attacker", kOtherUser);
  MakeLink(victim_, attacker + "/libpmapi", kOtherUser);
  EXPECT_EQ(InitializeInChild(attacker, ""), 0) << "init succeeds without the cache";
  ExpectVictimUntouched();
  EXPECT_EQ(Names(attacker), std::vector<std::string>{"libpmapi"});
}

TEST_F(catalog_cache_owner, OtherUsersLinkAsHomeCacheIsNotFollowed) {
  if (geteuid() != 0) GTEST_SKIP() << "a directory of another user needs root to make";
  // sudo keeping the caller's HOME: $HOME/.cache is that user's link to the victim.
  std::string home = MakeDirectory("home", kOtherUser);
  MakeLink(victim_, home + "/.cache", kOtherUser);
  EXPECT_EQ(InitializeInChild("", home), 0);
  ExpectVictimUntouched();
  EXPECT_EQ(Names(home), std::vector<std::string>{".cache"});
}

TEST_F(catalog_cache_owner, NothingUnderAnotherUsersDirectoryEvenIfOursBelow) {
  if (geteuid() != 0) GTEST_SKIP() << "a directory of another user needs root to make";
  // Our directory inside theirs: they could swap it for a link at any time.
  std::string attacker = MakeDirectory("attacker", kOtherUser);
  std::string ours = attacker + "/ours";
  ASSERT_EQ(mkdir(ours.c_str(), 0700), 0);
  EXPECT_EQ(InitializeInChild(ours, ""), 0);
  EXPECT_TRUE(Names(ours).empty());
  // And their home with no .cache yet: neither .cache nor libpmapi is made there.
  EXPECT_EQ(InitializeInChild("", attacker), 0);
  EXPECT_EQ(Names(attacker), std::vector<std::string>{"ours"});
}

TEST_F(catalog_cache_owner, OurOwnLinkOnTheWayIsNotFollowedEither) {
  // No root needed: any link on the path switches the cache off.
  std::string mine = MakeDirectory("mine", geteuid(), 0700);
  MakeLink(victim_, mine + "/libpmapi", geteuid());
  EXPECT_EQ(InitializeInChild(mine, ""), 0);
  ExpectVictimUntouched();
  MakeLink(mine, root_ + "/via-link", geteuid());
  EXPECT_EQ(InitializeInChild(root_ + "/via-link", ""), 0);
  ExpectVictimUntouched();
}

TEST_F(catalog_cache_owner, GroupWritableDirectoryOnTheWayIsRefused) {
  std::string shared = MakeDirectory("shared", geteuid(), 0775);
  EXPECT_EQ(InitializeInChild(shared, ""), 0);
  EXPECT_TRUE(Names(shared).empty()) << "a group member could swap what we create";
  // Sticky, like /tmp: no one else can rename or remove our entries.
  std::string sticky = MakeDirectory("sticky", geteuid(), 01777);
  EXPECT_EQ(InitializeInChild(sticky, ""), 0);
  EXPECT_EQ(Names(sticky), std::vector<std::string>{"libpmapi"});
}

TEST_F(catalog_cache_owner, OurOwnTreeGetsTheCache) {
  std::string home = MakeDirectory("home", geteuid(), 0700);
  EXPECT_EQ(InitializeInChild("", home), 0);
  ASSERT_EQ(Names(home), std::vector<std::string>{".cache"});
  std::vector<std::string> files = Names(home + "/.cache/libpmapi");
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(files[0].rfind("catalog-", 0), 0u) << files[0];
  struct stat info;
  ASSERT_EQ(stat((home + "/.cache/libpmapi/" + files[0]).c_str(), &info), 0);
  EXPECT_EQ(info.st_uid, geteuid());
  EXPECT_EQ(info.st_mode & 0777, 0600u);
  // A second process reads it (and leaves it alone).
  EXPECT_EQ(InitializeInChild("", home), 0);
  EXPECT_EQ(Names(home + "/.cache/libpmapi"), files);
  // Old files of ours are still pruned in our own directory.
  for (int age = 1; age <= 6; ++age) {
    std::string path =
        home + "/.cache/libpmapi/catalog-000000000000000" + std::to_string(age) + ".bin";
    std::ofstream(path) << "x";
    timeval written = {time(nullptr) - age * 24 * 3600, 0};
    timeval times[2] = {written, written};
    ASSERT_EQ(utimes(path.c_str(), times), 0);
  }
  ASSERT_EQ(unlink((home + "/.cache/libpmapi/" + files[0]).c_str()), 0);
  EXPECT_EQ(InitializeInChild("", home), 0);
  EXPECT_EQ(Names(home + "/.cache/libpmapi").size(), 4u) << "ours and the three newest others";
}

}  // namespace
