// SPDX-License-Identifier: MIT
// kernel.perf_event_paranoid has one reader, ReadPerfEventParanoid, through the kernel seam and
// without allocating; the permission message and the catalog cache key both take it from there.
#include <errno.h>
#include <gtest/gtest.h>

#include <string>

#include "base/kernel.h"
#include "base/status.h"
#include "catalog/catalog_cache.h"
#include "support/fake_kernel.h"

using pmapi_test::FakeKernel;
using pmapi_test::ScopedKernel;

namespace {

constexpr char kParanoid[] = "/proc/sys/kernel/perf_event_paranoid";

std::string Level() {
  char level[16];
  pmapi::ReadPerfEventParanoid(level, sizeof level);
  return level;
}

TEST(PerfEventParanoid, ReadThroughTheSeamAndTrimmed) {
  FakeKernel kernel;
  ScopedKernel scoped(&kernel);
  kernel.SetFile(kParanoid, "3\n");
  EXPECT_EQ(Level(), "3");
  char two[2];
  pmapi::ReadPerfEventParanoid(two, sizeof two);
  EXPECT_STREQ(two, "3");
  kernel.SetFile(kParanoid, "-1 \n");
  EXPECT_EQ(Level(), "-1");
}

TEST(PerfEventParanoid, AnUnreadableOrEmptyFileIsUnknown) {
  FakeKernel kernel;
  ScopedKernel scoped(&kernel);
  kernel.SetFile(kParanoid, "\n");
  EXPECT_EQ(Level(), "unknown");
  kernel.Clear();
  kernel.FailWith(FakeKernel::Op::kReadFile, EACCES, kParanoid);
  EXPECT_EQ(Level(), "unknown");
  char small[4];
  pmapi::ReadPerfEventParanoid(small, sizeof small);
  EXPECT_STREQ(small, "unk") << "cut to the caller's buffer, terminated";
}

TEST(PerfEventParanoid, ThePermissionMessageAndTheCacheKeyUseTheOneReading) {
  FakeKernel kernel;
  ScopedKernel scoped(&kernel);
  kernel.SetFile(kParanoid, "4\n");
  const pmapi::Status refused = pmapi::StatusFromErrno(EACCES, {"perf_event_open"});
  EXPECT_NE(refused.detail().find("kernel.perf_event_paranoid is 4"), std::string::npos)
      << refused.detail();
  EXPECT_NE(pmapi::CatalogCacheKey().find("\nparanoid=4\n"), std::string::npos);
  kernel.FailWith(FakeKernel::Op::kReadFile, EACCES, kParanoid);
  EXPECT_EQ(pmapi::CatalogCacheKey(), "") << "no key, no cache, when the level is unknown";
  const pmapi::Status unknown = pmapi::StatusFromErrno(EPERM, {"perf_event_open"});
  EXPECT_NE(unknown.detail().find("kernel.perf_event_paranoid is unknown"), std::string::npos)
      << unknown.detail();
}

// Level 3 (Debian's kernels) closes perf_event_open to every unprivileged user: the message
// says so and names the sysctl, rather than speaking of other users' processes.
TEST(PerfEventParanoid, LevelThreeSaysNothingCountsWithoutPrivilege) {
  FakeKernel kernel;
  ScopedKernel scoped(&kernel);
  kernel.SetFile(kParanoid, "3\n");
  const std::string three = pmapi::StatusFromErrno(EACCES, {"perf_event_open"}).detail();
  EXPECT_NE(three.find("kernel.perf_event_paranoid is 3 (Debian's default): no counting at all"),
            std::string::npos)
      << three;
  EXPECT_NE(three.find("sysctl kernel.perf_event_paranoid=2"), std::string::npos) << three;
  EXPECT_EQ(three.find("other users' processes"), std::string::npos) << three;
  kernel.SetFile(kParanoid, "2\n");
  const std::string two = pmapi::StatusFromErrno(EPERM, {"perf_event_open"}).detail();
  EXPECT_NE(two.find("other users' processes"), std::string::npos) << two;
  EXPECT_EQ(two.find("Debian"), std::string::npos) << two;
}

}  // namespace
