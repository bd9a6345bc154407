// SPDX-License-Identifier: MIT
// pm_set_setting(name, NULL) puts back the environment's value when the environment has the
// setting (settings_test.cpp has it unset there). The environment is read once per process, so
// this binary sets it before main, before anything reads the settings.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <string>

#include "pmapi.h"
#include "pmapi_settings.h"

namespace {

constexpr const char kSwitch[] = "PMAPI_NO_USERSPACE_READ";
constexpr const char kText[] = "PMAPI_MPI_OUTPUT";
constexpr const char kTextFromEnvironment[] = "/from/the/environment.json";

const bool g_environment_set =
    setenv(kSwitch, "1", 1) == 0 && setenv(kText, kTextFromEnvironment, 1) == 0;

std::string Setting(const char *name) {
  const char *value = nullptr;
  if (pm_get_setting(name, &value) != 0 || !value) return "(error)";
  return value;
}

TEST(settings_environment, NullPutsBackASwitchTheEnvironmentHasOn) {
  ASSERT_TRUE(g_environment_set);
  ASSERT_EQ(Setting(kSwitch), "1") << "the settings were read before this binary set them";
  ASSERT_EQ(pm_set_setting(kSwitch, "0"), 0);
  ASSERT_EQ(Setting(kSwitch), "0");
  ASSERT_EQ(pm_set_setting(kSwitch, nullptr), 0);
  EXPECT_EQ(Setting(kSwitch), "1") << "NULL puts back the environment's value, on";
  ASSERT_EQ(pm_set_setting(kSwitch, ""), 0);
  ASSERT_EQ(pm_set_setting(kSwitch, nullptr), 0);
  EXPECT_EQ(Setting(kSwitch), "1");
}

TEST(settings_environment, NullPutsBackATextTheEnvironmentHolds) {
  ASSERT_TRUE(g_environment_set);
  ASSERT_EQ(Setting(kText), kTextFromEnvironment);
  ASSERT_EQ(pm_set_setting(kText, "/by/the/call.json"), 0);
  ASSERT_EQ(Setting(kText), "/by/the/call.json");
  ASSERT_EQ(pm_set_setting(kText, nullptr), 0);
  EXPECT_EQ(Setting(kText), kTextFromEnvironment);
}

}  // namespace
