// SPDX-License-Identifier: MIT
// The cross-rank summary's wall-time line: the shortest and longest rank, whatever order the
// ranks come in, and the mean.
#include <gtest/gtest.h>

#include "cross_rank_summary.h"

namespace pmapi_mpi {
namespace {

EventSet RanksWithWalls(const std::vector<double> &walls) {
  EventSet set;
  set.name = "run";
  set.events = {"task-clock"};
  for (size_t r = 0; r < walls.size(); ++r) {
    RankCounts rank;
    rank.rank = static_cast<int>(r);
    rank.host = "a";
    rank.wall_s = walls[r];
    rank.counted = true;
    rank.values = {1};
    set.ranks.push_back(rank);
  }
  return set;
}

TEST(CrossRankWall, ShortestAndLongestRankInAnyOrder) {
  const WallStats wall = SummarizeWall(RanksWithWalls({3.0, 1.0, 4.0, 2.0}));
  EXPECT_DOUBLE_EQ(wall.min, 1.0);
  EXPECT_EQ(wall.min_rank, 1);
  EXPECT_DOUBLE_EQ(wall.max, 4.0);
  EXPECT_EQ(wall.max_rank, 2);
  EXPECT_DOUBLE_EQ(wall.mean, 2.5);
  const WallStats falling = SummarizeWall(RanksWithWalls({4.0, 3.0, 2.0, 1.0}));
  EXPECT_EQ(falling.min_rank, 3);
  EXPECT_EQ(falling.max_rank, 0);
}

TEST(CrossRankWall, TheBannerLineNamesThem) {
  const std::string banner = FormatBanner({RanksWithWalls({3.0, 1.0, 4.0, 2.0})}, "T");
  EXPECT_NE(
      banner.find("# wall (s) : mean 2.500000  min 1.000000 (rank 1)  max 4.000000 (rank 2)\n"),
      std::string::npos)
      << banner;
}

}  // namespace
}  // namespace pmapi_mpi
