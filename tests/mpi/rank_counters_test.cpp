// SPDX-License-Identifier: MIT
// libpmapi-mpi's choice of events from PMAPI_MPI_EVENTS, without MPI: RankCounters programs
// the calling process through the public pm_* calls, as a rank does in MPI_Init.
#include "rank_counters.h"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

namespace pmapi_mpi {
namespace {

// pm_sw_basic (groups/software.grp) is defined on every machine, a VM without a PMU included.
constexpr const char *kGroup = "pm_sw_basic";
constexpr const char *kMembers = "task-clock,context-switches,cpu-migrations,page-faults";

TEST(RankCounters, AGroupAndAnEventEachCountAlone) {
  for (const char *spec : {kGroup, "task-clock"}) {
    RankCounters counters;
    counters.Start(spec);
    EXPECT_TRUE(counters.counting()) << spec << ": " << counters.why();
    std::vector<long long> values;
    EXPECT_TRUE(counters.Read(&values)) << spec;
    counters.Stop();
  }
}

// Issue 26: a group among events was called "neither an event nor a group of this machine".
// The message says what is wrong instead, and lists the group's events to name instead.
TEST(RankCounters, AGroupAmongEventsSaysGroupsCannotBeCombined) {
  for (const std::string &spec :
       {std::string(kGroup) + ",task-clock", std::string("page-faults,") + kGroup}) {
    RankCounters counters;
    counters.Start(spec);
    EXPECT_FALSE(counters.counting()) << spec;
    // The words of libhpm's HPM_EVENT_SET message (docs/libhpm.md), so that both say it alike.
    EXPECT_EQ(counters.why(), "PMAPI_MPI_EVENTS='" + spec + "': '" + kGroup +
                                  "' is a group, and a group cannot be combined with other "
                                  "events; name the group alone or list its events (" +
                                  kMembers + ")");
  }
}

// The lists leave syscalls:sys_exit_* out by default; pm_select_events finds it by name, with
// no PMAPI_LIST_TRACEPOINTS set around pm_initialize (issue 28).
TEST(RankCounters, ATracepointTheListsLeaveOutCounts) {
  ASSERT_EQ(getenv("PMAPI_LIST_TRACEPOINTS"), nullptr);
  RankCounters counters;
  counters.Start("syscalls:sys_exit_getppid");
  EXPECT_TRUE(counters.counting()) << counters.why();
  for (int i = 0; i < 10; ++i) getppid();
  std::vector<long long> values;
  ASSERT_TRUE(counters.Read(&values));
  EXPECT_EQ(values, std::vector<long long>{10});
  counters.Stop();
  EXPECT_EQ(getenv("PMAPI_LIST_TRACEPOINTS"), nullptr);
}

TEST(RankCounters, AnUnknownNameIsStillNeither) {
  RankCounters counters;
  counters.Start("task-clock,no-such-thing");
  EXPECT_FALSE(counters.counting());
  EXPECT_EQ(counters.why(),
            "unknown event 'no-such-thing' in PMAPI_MPI_EVENTS (neither an event nor a group of "
            "this machine; pmlist lists them)");
}

}  // namespace
}  // namespace pmapi_mpi
