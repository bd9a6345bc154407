// SPDX-License-Identifier: MIT
// Where the catalog cache lives when no login session gave the process a runtime directory:
// a private directory of the library's own under $TMPDIR (else /tmp), made 0700, used only when
// it is a real directory of this user that nobody else may enter; anything else there means no
// cache, and is neither followed nor changed.
#include <errno.h>
#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <memory>
#include <string>

#include "catalog/catalog.h"
#include "catalog/catalog_cache.h"
#include "support/fake_kernel.h"
#include "support/scratch_dir.h"

namespace {

using pmapi::CacheDirectoryInputs;
using pmapi::ChooseCacheDirectory;

mode_t ModeOf(const std::string &path) {
  struct stat info;
  return lstat(path.c_str(), &info) == 0 ? info.st_mode : 0;
}

class CacheDirectory : public ::testing::Test {
 protected:
  void SetUp() override {
    own_ = dir_ + "/libpmapi-" + std::to_string(geteuid());
    // No runtime directory, no login directory: the case of root in a container, cron, or a
    // batch job without a session.
    inputs_.runtime_dir = nullptr;
    inputs_.login_dir = dir_ + "/no-such-run-user";
    inputs_.temp_dir = dir_.c_str();
    inputs_.euid = geteuid();
  }
  // The choice must be "" (no cache), and must leave `path` as it was.
  void ExpectRefused(const char *what) {
    const mode_t before = ModeOf(own_);
    bool own = true;
    EXPECT_EQ(ChooseCacheDirectory(inputs_, &own), "") << what;
    EXPECT_FALSE(own) << what;
    EXPECT_EQ(ModeOf(own_), before) << what << ": not changed";
  }

  pmapi_test::ScratchDir scratch_{"pmapi-cache-dir-test-"};
  std::string dir_ = scratch_.path();
  std::string own_;
  CacheDirectoryInputs inputs_;
};

TEST_F(CacheDirectory, WithoutRuntimeDirectoriesAPrivateOneIsMadeUnderTmpdir) {
  bool own = false;
  ASSERT_EQ(ChooseCacheDirectory(inputs_, &own), own_);
  EXPECT_TRUE(own) << "the key must then name the boot";
  EXPECT_TRUE(S_ISDIR(ModeOf(own_)));
  EXPECT_EQ(ModeOf(own_) & 0777, 0700u);
  EXPECT_EQ(ChooseCacheDirectory(inputs_, &own), own_) << "and used again as it is";
  EXPECT_EQ(ModeOf(own_) & 0777, 0700u);

  inputs_.temp_dir = "relative/ignored";
  const std::string in_tmp = "/tmp/libpmapi-" + std::to_string(geteuid());
  const std::string chosen = ChooseCacheDirectory(inputs_, &own);
  // /tmp is shared with everything else on the machine: its entry may be refused, never
  // another one used.
  EXPECT_TRUE(chosen == in_tmp || chosen.empty()) << chosen;
  if (!chosen.empty()) {
    EXPECT_TRUE(pmapi::PrivateDirectory(in_tmp, geteuid()));
  }
}

TEST_F(CacheDirectory, RuntimeDirectoriesComeFirst) {
  bool own = true;
  inputs_.login_dir = dir_;  // exists
  EXPECT_EQ(ChooseCacheDirectory(inputs_, &own), dir_);
  EXPECT_FALSE(own);
  inputs_.runtime_dir = "/run/user/4321";
  EXPECT_EQ(ChooseCacheDirectory(inputs_, &own), "/run/user/4321");
  EXPECT_FALSE(own);
  inputs_.runtime_dir = "relative/ignored";
  EXPECT_EQ(ChooseCacheDirectory(inputs_, &own), dir_);
  EXPECT_EQ(ModeOf(own_), 0u) << "no private directory is made when a runtime one exists";
}

TEST_F(CacheDirectory, DirectoryOthersMayEnterIsRefusedAndLeftAlone) {
  ASSERT_EQ(mkdir(own_.c_str(), 0700), 0);
  ASSERT_EQ(chmod(own_.c_str(), 0750), 0);
  ExpectRefused("group may read");
  ASSERT_EQ(chmod(own_.c_str(), 0701), 0);
  ExpectRefused("others may enter");
  ASSERT_EQ(chmod(own_.c_str(), 0777), 0);
  ExpectRefused("everyone may write");
}

TEST_F(CacheDirectory, LinkIsRefusedNotFollowed) {
  const std::string target = dir_ + "/target";
  ASSERT_EQ(mkdir(target.c_str(), 0700), 0);  // private and ours: only the link is wrong
  ASSERT_EQ(symlink(target.c_str(), own_.c_str()), 0);
  ExpectRefused("a link to a private directory");
  EXPECT_TRUE(S_ISLNK(ModeOf(own_)));
  ASSERT_EQ(unlink(own_.c_str()), 0);
  ASSERT_EQ(symlink((dir_ + "/dangling").c_str(), own_.c_str()), 0);
  ExpectRefused("a dangling link");
  EXPECT_NE(access((dir_ + "/dangling").c_str(), F_OK), 0) << "nothing made through it";
}

TEST_F(CacheDirectory, FileAtThePathIsRefused) {
  std::ofstream(own_) << "x";
  ExpectRefused("a regular file");
}

TEST_F(CacheDirectory, AnotherUsersDirectoryIsRefused) {
  if (geteuid() != 0) GTEST_SKIP() << "giving a directory away needs root";
  ASSERT_EQ(mkdir(own_.c_str(), 0700), 0);
  ASSERT_EQ(chown(own_.c_str(), 12345, 12345), 0);
  ExpectRefused("owned by uid 12345");
  struct stat info;
  ASSERT_EQ(lstat(own_.c_str(), &info), 0);
  EXPECT_EQ(info.st_uid, 12345u) << "not taken over";
}

TEST_F(CacheDirectory, UnusableDirectoryOnlyCostsTheCache) {
  // The process catalog as Catalog::Get makes it, under a refused directory: no cache, the
  // catalog built from its sources, nothing written.
  const std::string target = dir_ + "/target";
  ASSERT_EQ(mkdir(target.c_str(), 0700), 0);
  ASSERT_EQ(symlink(target.c_str(), own_.c_str()), 0);
  const std::string chosen = ChooseCacheDirectory(inputs_);
  ASSERT_EQ(chosen, "");
  std::unique_ptr<pmapi::Catalog> catalog = pmapi::Catalog::BuildCached("");
  EXPECT_FALSE(catalog->from_cache());
  EXPECT_TRUE(catalog->load_status().ok());
  EXPECT_NE(catalog->FindName("task-clock"), nullptr);
  EXPECT_EQ(rmdir(target.c_str()), 0) << "the link's target stays empty";
}

// A private directory may outlive the boot (a /tmp on disk): its file's key names the boot.
TEST(CacheKey, BootIsInTheKeyOnlyWhenAsked) {
  pmapi_test::FakeKernel kernel;
  pmapi_test::ScopedKernel installed(&kernel);
  const std::string plain = pmapi::CatalogCacheKey();
  const std::string booted = pmapi::CatalogCacheKey(true);
  ASSERT_FALSE(plain.empty());
  EXPECT_EQ(plain.find("boot="), std::string::npos) << plain;
  EXPECT_EQ(booted.compare(0, plain.size(), plain), 0) << booted;
  EXPECT_EQ(booted.find("\nboot="), plain.size() - 1) << booted;
  EXPECT_EQ(booted.back(), '\n');
  EXPECT_EQ(pmapi::CatalogCacheKey(true), booted) << "the same all boot long";
  kernel.FailWith(pmapi_test::FakeKernel::Op::kReadFile, EACCES, "/proc/sys/kernel/random/boot_id");
  EXPECT_EQ(pmapi::CatalogCacheKey(true), "") << "no boot id, no cache";
  EXPECT_EQ(pmapi::CatalogCacheKey(), plain);
}

TEST(CacheKey, FileOfAnotherBootIsNotUsed) {
  char pattern[] = "/tmp/pmapi-cache-boot-test-XXXXXX";
  ASSERT_NE(mkdtemp(pattern), nullptr);
  const std::string dir = pattern;
  const std::string path = dir + "/libpmapi-catalog.bin";
  {
    pmapi_test::FakeKernel kernel;
    pmapi_test::ScopedKernel installed(&kernel);
    kernel.SetFile("/sys/kernel/tracing/available_events", "fake:one\n");
    kernel.SetFile("/proc/sys/kernel/random/boot_id", "11111111-aaaa\n");
    EXPECT_FALSE(pmapi::Catalog::BuildCached(path, true)->from_cache());
    EXPECT_TRUE(pmapi::Catalog::BuildCached(path, true)->from_cache());
    kernel.SetFile("/proc/sys/kernel/random/boot_id", "22222222-bbbb\n");
    EXPECT_FALSE(pmapi::Catalog::BuildCached(path, true)->from_cache()) << "after a reboot";
    EXPECT_TRUE(pmapi::Catalog::BuildCached(path, true)->from_cache());
  }
  std::string command = "rm -rf '" + dir + "'";
  ASSERT_EQ(system(command.c_str()), 0);
}

}  // namespace
