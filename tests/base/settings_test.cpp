// SPDX-License-Identifier: MIT
// The settings value (src/base/settings.h) and its calls (include/pmapi_settings.h): a setting
// set by the call is honoured with no environment variable, the environment is read once, and
// bad names get a clear error.
#include <gtest/gtest.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>

#include "base/settings.h"
#include "pmapi.h"
#include "pmapi_settings.h"

namespace {

std::string Setting(const char *name) {
  const char *value = nullptr;
  if (pm_get_setting(name, &value) != 0 || !value) return "(error)";
  return value;
}

// Whether pm_initialize's lists hold `name` (on counter 0, where tracepoints are listed).
bool Listed(const pm_info2_t &info, const char *name) {
  for (int i = 0; i < info.maxevents[0]; ++i) {
    if (strcmp(info.list_events[0][i].short_name, name) == 0) return true;
  }
  return false;
}

// A tracepoint the default lists leave out (docs/catalog.md, "The bound").
constexpr const char kUnlisted[] = "syscalls:sys_exit_getppid";

TEST(settings, TheCallIsHonouredWithoutTheEnvironment) {
  ASSERT_EQ(getenv("PMAPI_LIST_TRACEPOINTS"), nullptr) << "the test needs it unset";
  // In a child, so that the catalog is built there, under the setting.
  pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    pm_info2_t plain;
    const int code = 10;
    if (pm_set_setting("PMAPI_LIST_TRACEPOINTS", kUnlisted) != 0) _exit(code + 1);
    if (getenv("PMAPI_LIST_TRACEPOINTS") != nullptr) _exit(code + 2);
    if (pm_initialize(PM_VERIFIED | PM_UNVERIFIED | PM_CAVEAT, &plain, nullptr, PM_CURRENT) != 0) {
      _exit(code + 3);
    }
    _exit(Listed(plain, kUnlisted) ? 0 : code + 4);
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  // 14: not listed. Without tracefs there is no such tracepoint to list.
  if (WEXITSTATUS(status) == 14 && access("/sys/kernel/tracing/events/syscalls", R_OK) != 0) {
    GTEST_SKIP() << "tracefs is not readable here";
  }
  EXPECT_EQ(WEXITSTATUS(status), 0) << "10+n: step n of the child failed";
}

// Sets an environment variable for one scope (a test may; the library never does).
class ScopedVariable {
 public:
  ScopedVariable(const char *name, const char *value) : name_(name) {
    const char *old = getenv(name);
    had_ = old != nullptr;
    if (had_) old_ = old;
    setenv(name, value, 1);
  }
  ~ScopedVariable() {
    if (had_) {
      setenv(name_, old_.c_str(), 1);
    } else {
      unsetenv(name_);
    }
  }

 private:
  const char *name_;
  bool had_ = false;
  std::string old_;
};

TEST(settings, TheEnvironmentIsReadOnce) {
  const std::string before = Setting("PMAPI_NO_FORK_COUNTER");  // read by now
  const std::string runtime_dir = pmapi::CurrentSettings().runtime_dir;
  ScopedVariable fork_counter("PMAPI_NO_FORK_COUNTER", before == "1" ? "0" : "1");
  ScopedVariable runtime("XDG_RUNTIME_DIR", "/elsewhere");
  EXPECT_EQ(Setting("PMAPI_NO_FORK_COUNTER"), before) << "a later setenv is not seen";
  EXPECT_EQ(pmapi::CurrentSettings().runtime_dir, runtime_dir);
}

TEST(settings, SetGetAndBackToTheEnvironment) {
  const std::string from_environment = Setting("PMAPI_GROUPS_DIR");
  ASSERT_EQ(pm_set_setting("PMAPI_GROUPS_DIR", "/site/groups"), 0);
  EXPECT_EQ(Setting("PMAPI_GROUPS_DIR"), "/site/groups");
  EXPECT_EQ(pmapi::CurrentSettings().groups_dir, "/site/groups");
  ASSERT_EQ(pm_set_setting("PMAPI_GROUPS_DIR", nullptr), 0);
  EXPECT_EQ(Setting("PMAPI_GROUPS_DIR"), from_environment) << "NULL puts back the environment's";
  // A switch is on for anything but "" and "0".
  const std::string anchors = Setting("PMAPI_NO_TRACEPOINT_ANCHORS");
  for (const char *on : {"1", "yes", "00"}) {
    ASSERT_EQ(pm_set_setting("PMAPI_NO_TRACEPOINT_ANCHORS", on), 0);
    EXPECT_EQ(Setting("PMAPI_NO_TRACEPOINT_ANCHORS"), "1") << on;
    EXPECT_TRUE(pmapi::CurrentSettings().no_tracepoint_anchors) << on;
  }
  for (const char *off : {"", "0"}) {
    ASSERT_EQ(pm_set_setting("PMAPI_NO_TRACEPOINT_ANCHORS", off), 0);
    EXPECT_EQ(Setting("PMAPI_NO_TRACEPOINT_ANCHORS"), "0") << '"' << off << '"';
  }
  ASSERT_EQ(pm_set_setting("PMAPI_NO_TRACEPOINT_ANCHORS", nullptr), 0);
  EXPECT_EQ(Setting("PMAPI_NO_TRACEPOINT_ANCHORS"), anchors);
}

TEST(settings, AValueGotStaysValidAfterAChange) {
  ASSERT_EQ(pm_set_setting("PMAPI_EVENTS_DIR", "/first"), 0);
  const char *first = nullptr;
  ASSERT_EQ(pm_get_setting("PMAPI_EVENTS_DIR", &first), 0);
  ASSERT_EQ(pm_set_setting("PMAPI_EVENTS_DIR", "/second"), 0);
  EXPECT_STREQ(first, "/first") << "a change publishes a new value";
  EXPECT_EQ(Setting("PMAPI_EVENTS_DIR"), "/second");
  ASSERT_EQ(pm_set_setting("PMAPI_EVENTS_DIR", nullptr), 0);
}

TEST(settings, AValueGotStaysValidWhileTheSettingGoesBackAndForth) {
  ASSERT_EQ(pm_set_setting("PMAPI_EVENTS_DIR", "/first"), 0);
  const char *first = nullptr;
  ASSERT_EQ(pm_get_setting("PMAPI_EVENTS_DIR", &first), 0);
  for (int round = 0; round < 3; ++round) {
    ASSERT_EQ(pm_set_setting("PMAPI_EVENTS_DIR", "/second"), 0);
    ASSERT_EQ(pm_set_setting("PMAPI_EVENTS_DIR", "/first"), 0);
  }
  ASSERT_EQ(pm_set_setting("PMAPI_EVENTS_DIR", "/second"), 0);
  EXPECT_STREQ(first, "/first");
  EXPECT_EQ(Setting("PMAPI_EVENTS_DIR"), "/second");
  ASSERT_EQ(pm_set_setting("PMAPI_EVENTS_DIR", nullptr), 0);
}

// A program that switches user-space reads off around its measurements: each value is kept
// once, however many calls switch between them.
TEST(settings, AMillionTogglesKeepEachValueOnce) {
  ASSERT_EQ(pm_set_setting("PMAPI_NO_USERSPACE_READ", nullptr), 0);
  const size_t before = pmapi::StoredSettingsValues();
  for (int call = 0; call < 1000000; ++call) {
    ASSERT_EQ(pm_set_setting("PMAPI_NO_USERSPACE_READ", call % 2 ? "0" : "1"), 0);
  }
  EXPECT_EQ(Setting("PMAPI_NO_USERSPACE_READ"), "0");
  EXPECT_LE(pmapi::StoredSettingsValues(), before + 1) << "the switch on is the one new value";
  ASSERT_EQ(pm_set_setting("PMAPI_NO_USERSPACE_READ", nullptr), 0);
  EXPECT_LE(pmapi::StoredSettingsValues(), before + 1);
}

TEST(settings, BadArgumentsSayWhat) {
  EXPECT_EQ(pm_set_setting("PMAPI_NO_SUCH_THING", "1"), Pmapi_InvalidArg);
  const std::string message = pm_strerror("pm_set_setting", Pmapi_InvalidArg);
  EXPECT_NE(message.find("'PMAPI_NO_SUCH_THING' is not a setting; /"), std::string::npos)
      << message;
  EXPECT_NE(message.find("/settings.md lists them"), std::string::npos) << message;
  EXPECT_EQ(pm_set_setting(nullptr, "1"), Pmapi_InvalidArg);
  EXPECT_EQ(pm_set_setting("TMPDIR", "/tmp"), Pmapi_InvalidArg) << "not the library's to set";
  const char *value = nullptr;
  EXPECT_EQ(pm_get_setting("PMAPI_NO_SUCH_THING", &value), Pmapi_InvalidArg);
  EXPECT_EQ(value, nullptr) << "written only on success";
  EXPECT_EQ(pm_get_setting("PMAPI_NO_CACHE", nullptr), Pmapi_InvalidArg);
  EXPECT_EQ(pm_get_setting(nullptr, &value), Pmapi_InvalidArg);
}

}  // namespace
