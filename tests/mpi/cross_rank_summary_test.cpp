// SPDX-License-Identifier: MIT
// The cross-rank summary without MPI: statistics over the ranks that counted, the banner's
// lines, the JSON and CSV forms, and the atomic write.
#include "cross_rank_summary.h"

#include <dirent.h>
#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <sstream>

namespace pmapi_mpi {
namespace {

EventSet FourRanks() {
  EventSet set;
  set.name = "run";
  set.events = {"syscalls:sys_enter_getppid", "task-clock"};
  for (int r = 0; r < 4; ++r) {
    RankCounts rank;
    rank.rank = r;
    rank.host = r < 2 ? "a" : "b";
    rank.wall_s = 1.0 + r;
    rank.counted = true;
    rank.values = {1000LL * (r + 1), 7};
    set.ranks.push_back(rank);
  }
  return set;
}

TEST(CrossRankSummary, SumMinMaxMeanImbalanceWithRanks) {
  const std::vector<EventStats> stats = Summarize(FourRanks());
  ASSERT_EQ(stats.size(), 2u);
  EXPECT_EQ(stats[0].sum, 10000);
  EXPECT_EQ(stats[0].min, 1000);
  EXPECT_EQ(stats[0].min_rank, 0);
  EXPECT_EQ(stats[0].max, 4000);
  EXPECT_EQ(stats[0].max_rank, 3);
  EXPECT_DOUBLE_EQ(stats[0].mean, 2500);
  EXPECT_DOUBLE_EQ(stats[0].imbalance, 1.6);
  // Ties: the lowest rank is named.
  EXPECT_EQ(stats[1].min_rank, 0);
  EXPECT_EQ(stats[1].max_rank, 0);
  EXPECT_DOUBLE_EQ(stats[1].imbalance, 1.0);
}

TEST(CrossRankSummary, RanksNotCountedTakeNoPart) {
  EventSet set = FourRanks();
  set.ranks[0].counted = false;
  set.ranks[0].values = {0, 0};  // what a rank that could not count sends
  const std::vector<EventStats> stats = Summarize(set);
  EXPECT_EQ(stats[0].counted_ranks, 3);
  EXPECT_EQ(stats[0].sum, 9000);
  EXPECT_EQ(stats[0].min, 2000);
  EXPECT_EQ(stats[0].min_rank, 1);
  const std::string banner = FormatBanner({set}, "T");
  EXPECT_NE(banner.find("# not counted on ranks 0 "), std::string::npos) << banner;
  EXPECT_NE(FormatJson({set}, 1).find("\"counted\": false, \"values\": "
                                      "{\"syscalls:sys_enter_getppid\": null"),
            std::string::npos);
}

TEST(CrossRankSummary, NoRankCountedSaysSo) {
  EventSet set = FourRanks();
  for (RankCounts &rank : set.ranks) rank.counted = false;
  EXPECT_EQ(Summarize(set)[0].counted_ranks, 0);
  EXPECT_NE(FormatBanner({set}, "T").find("<not counted>"), std::string::npos);
}

TEST(CrossRankSummary, BannerHasRanksHostsAndOneLinePerEvent) {
  const std::string banner = FormatBanner({FourRanks()}, "PMAPI-MPI");
  EXPECT_EQ(banner.rfind("##PMAPI-MPI#", 0), 0u);
  EXPECT_NE(banner.find("# ranks : 4        hosts : 2\n"), std::string::npos) << banner;
  std::istringstream lines(banner);
  std::string line;
  int rows = 0;
  while (std::getline(lines, line)) {
    std::istringstream fields(line);
    std::string hash, event, sum, min, min_rank, max, max_rank;
    fields >> hash >> event >> sum >> min >> min_rank >> max >> max_rank;
    if (event == "syscalls:sys_enter_getppid") {
      ++rows;
      EXPECT_EQ(sum + " " + min + " " + min_rank + " " + max + " " + max_rank,
                "10000 1000 0 4000 3");
    }
  }
  EXPECT_EQ(rows, 1);
}

TEST(CrossRankSummary, JsonAndCsvQuoteWhatTheyMust) {
  EventSet set = FourRanks();
  set.name = "phase \"one\", with\ttab";
  const std::string json = FormatJson({set}, 2);
  // The kit's one JSON writer (src/report/json.h): a tab is JSON's two-letter \t escape.
  EXPECT_NE(json.find("\"name\": \"phase \\\"one\\\", with\\ttab\""), std::string::npos) << json;
  EXPECT_NE(json.find("\"collectives\": 2"), std::string::npos);
  const std::string csv = FormatCsv({set});
  EXPECT_NE(csv.find("\n\"phase \"\"one\"\", with\ttab\",0,a,"), std::string::npos) << csv;
  EXPECT_EQ(csv.rfind("set,rank,host,wall_s,counted,calls,event,value\n", 0), 0u);
}

TEST(CrossRankSummary, WriteAtomicallyReplacesAndLeavesNoTemporary) {
  char dir[] = "/tmp/pmapi-mpi-summary.XXXXXX";
  ASSERT_NE(mkdtemp(dir), nullptr);
  const std::string path = std::string(dir) + "/out.json";
  ASSERT_EQ(WriteAtomically(path, "first\n"), "");
  ASSERT_EQ(WriteAtomically(path, "second\n"), "");
  std::ifstream file(path);
  std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text, "second\n");
  const std::string temporary = path + ".tmp." + std::to_string(getpid());
  struct stat info;
  EXPECT_NE(stat(temporary.c_str(), &info), 0);
  // A directory that does not exist: an error naming the file, nothing written.
  const std::string bad = std::string(dir) + "/no/such/out.json";
  EXPECT_NE(WriteAtomically(bad, "x").find("cannot create " + bad), std::string::npos);
  unlink(path.c_str());
  rmdir(dir);
}

std::string Contents(const std::string &path) {
  std::ifstream file(path);
  return std::string((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
}

// Another user's links in a shared directory (issue 26): one at the temporary's name, one at
// the output's. Neither the files they point to change, nor do the links (not ours to
// remove); the output is a file of its own with the text, and no temporary is left.
TEST(CrossRankSummary, WriteAtomicallyFollowsNoPlantedLink) {
  char dir[] = "/tmp/pmapi-mpi-summary.XXXXXX";
  ASSERT_NE(mkdtemp(dir), nullptr);
  const std::string path = std::string(dir) + "/out.json";
  const std::string temporary = path + ".tmp." + std::to_string(getpid());
  const std::string victim = std::string(dir) + "/victim";
  const std::string other_victim = std::string(dir) + "/other-victim";
  const std::string dangling = std::string(dir) + "/not-yet";
  std::ofstream(victim) << "precious\n";
  std::ofstream(other_victim) << "also precious\n";
  ASSERT_EQ(symlink(victim.c_str(), temporary.c_str()), 0);
  ASSERT_EQ(symlink(other_victim.c_str(), path.c_str()), 0);
  EXPECT_EQ(WriteAtomically(path, "results\n"), "");
  EXPECT_EQ(Contents(victim), "precious\n");
  EXPECT_EQ(Contents(other_victim), "also precious\n");
  struct stat info;
  ASSERT_EQ(lstat(path.c_str(), &info), 0);
  EXPECT_TRUE(S_ISREG(info.st_mode)) << "the link at the output is replaced, not followed";
  const mode_t mask = umask(022);
  umask(mask);
  EXPECT_EQ(info.st_mode & 0777, 0644u & ~mask);
  EXPECT_EQ(Contents(path), "results\n");
  ASSERT_EQ(lstat(temporary.c_str(), &info), 0);
  EXPECT_TRUE(S_ISLNK(info.st_mode)) << "the planted link is left as it was";

  // A dangling link at the temporary's name must not create its target either.
  unlink(temporary.c_str());
  ASSERT_EQ(symlink(dangling.c_str(), temporary.c_str()), 0);
  EXPECT_EQ(WriteAtomically(path, "again\n"), "");
  EXPECT_NE(lstat(dangling.c_str(), &info), 0);
  EXPECT_EQ(Contents(path), "again\n");

  // Only the planted link, the two victims and the output are left: no temporary.
  int entries = 0;
  if (DIR *d = opendir(dir)) {
    while (const dirent *entry = readdir(d)) entries += entry->d_name[0] != '.';
    closedir(d);
  }
  EXPECT_EQ(entries, 4);
  for (const std::string &name : {path, temporary, victim, other_victim}) unlink(name.c_str());
  rmdir(dir);
}

}  // namespace
}  // namespace pmapi_mpi
