// SPDX-License-Identifier: MIT
// The launchers' rank variables (src/report/launcher_rank.h), the one list libhpm, pmcount and
// hpmcount read: every launcher's variable is recognised, an MPI's own beats Slurm's, and a
// rank that is no number is no rank.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <string>
#include <utility>
#include <vector>

#include "launcher_rank.h"

namespace tools {
namespace {

// Clears every launcher's variables for the test, and puts them back after.
class LauncherRankTest : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const Launcher &launcher : kLaunchers) {
      for (const char *name : {launcher.rank, launcher.size}) {
        if (!name) continue;
        if (const char *value = getenv(name)) saved_.push_back({name, value});
        unsetenv(name);
      }
    }
  }
  void TearDown() override {
    for (const Launcher &launcher : kLaunchers) {
      unsetenv(launcher.rank);
      if (launcher.size) unsetenv(launcher.size);
    }
    for (const auto &[name, value] : saved_) setenv(name.c_str(), value.c_str(), 1);
  }

 private:
  std::vector<std::pair<std::string, std::string>> saved_;
};

TEST_F(LauncherRankTest, RecognisesEveryKnownLaunchersVariables) {
  // The launchers users run the tools under, by the variables they set.
  const struct {
    const char *rank, *size;
  } known[] = {{"OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE"},
               {"PMIX_RANK", nullptr},
               {"PMI_RANK", "PMI_SIZE"},
               {"MV2_COMM_WORLD_RANK", "MV2_COMM_WORLD_SIZE"},
               {"MP_CHILD", "MP_PROCS"},
               {"SLURM_PROCID", "SLURM_NTASKS"}};
  for (const auto &launcher : known) {
    SCOPED_TRACE(launcher.rank);
    setenv(launcher.rank, "3", 1);
    if (launcher.size) setenv(launcher.size, "8", 1);
    int rank = -1, size = 0;
    const Launcher *from = nullptr;
    ASSERT_TRUE(LauncherRank(&rank, &from));
    EXPECT_EQ(rank, 3);
    EXPECT_STREQ(from->rank, launcher.rank);
    EXPECT_NE(LauncherVariables().find(launcher.rank), std::string::npos);
    if (launcher.size) {
      ASSERT_TRUE(LauncherTask(&rank, &size, &from));
      EXPECT_EQ(rank, 3);
      EXPECT_EQ(size, 8);
      EXPECT_STREQ(from->size, launcher.size);
      EXPECT_NE(LauncherVariables(true).find(std::string(launcher.rank) + " and " + launcher.size),
                std::string::npos);
    } else {
      EXPECT_FALSE(LauncherTask(&rank, &size));
    }
    unsetenv(launcher.rank);
    if (launcher.size) unsetenv(launcher.size);
  }
}

TEST_F(LauncherRankTest, AnMpisOwnRankBeatsTheSlurmAllocations) {
  setenv("SLURM_PROCID", "0", 1);
  setenv("SLURM_NTASKS", "1", 1);
  setenv("OMPI_COMM_WORLD_RANK", "2", 1);
  setenv("OMPI_COMM_WORLD_SIZE", "4", 1);
  int rank = -1, size = 0;
  ASSERT_TRUE(LauncherRank(&rank));
  EXPECT_EQ(rank, 2);
  ASSERT_TRUE(LauncherTask(&rank, &size));
  EXPECT_EQ(rank, 2);
  EXPECT_EQ(size, 4);
}

TEST_F(LauncherRankTest, NoneSetOrNoNumberIsNoRank) {
  int rank = -1, size = 0;
  EXPECT_FALSE(LauncherRank(&rank));
  EXPECT_FALSE(LauncherTask(&rank, &size));
  setenv("PMI_RANK", "", 1);
  EXPECT_FALSE(LauncherRank(&rank));
  setenv("PMI_RANK", "two", 1);
  EXPECT_FALSE(LauncherRank(&rank));
  setenv("PMI_RANK", "-1", 1);
  EXPECT_FALSE(LauncherRank(&rank));
  setenv("PMI_RANK", "5", 1);
  setenv("PMI_SIZE", "5", 1);  // a rank must be below the size
  EXPECT_FALSE(LauncherTask(&rank, &size));
  EXPECT_EQ(rank, -1);
}

TEST_F(LauncherRankTest, NamesTheVariablesForAMessage) {
  EXPECT_EQ(LauncherVariables(),
            "OMPI_COMM_WORLD_RANK, PMIX_RANK, PMI_RANK, MV2_COMM_WORLD_RANK, MP_CHILD or "
            "SLURM_PROCID");
  EXPECT_EQ(LauncherVariables(true),
            "OMPI_COMM_WORLD_RANK and OMPI_COMM_WORLD_SIZE, PMI_RANK and PMI_SIZE, "
            "MV2_COMM_WORLD_RANK and MV2_COMM_WORLD_SIZE, MP_CHILD and MP_PROCS, or SLURM_PROCID "
            "and SLURM_NTASKS");
}

}  // namespace
}  // namespace tools
