// SPDX-License-Identifier: MIT
// Programs written the way real AIX pmapi clients are (PAPI's AIX substrate, IPM, OpenJ9's
// hardware profiler, Paradyn, hypre; see docs/porting.md): they index
// list_events[counter][event_id] directly, look every events[counter] of every group up in
// the lists, program "group N" by the index they found it at, copy the lists into fixed
// 1,024-entry tables, call the two-argument pm_init and pm_initialize with explicit processor
// types. Out-of-range ids would read past the arrays, so under ASan these tests crash rather
// than fail quietly if a convention breaks; the explicit range checks make a plain build fail
// too.
#include <gtest/gtest.h>

#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <memory>
#include <string>
#include <thread>

#include "base/last_error.h"
#include "base/settings.h"
#include "catalog/catalog.h"
#include "catalog/id_order.h"
#include "pmapi_aix.h"
#include "support/counting.h"

using namespace pmapi_test;

namespace {

constexpr int kAllStatuses = PM_VERIFIED | PM_UNVERIFIED | PM_CAVEAT;
// PAPI's native table, and the size AIX clients assume a counter's list fits.
constexpr int kClientTableSize = 1024;

// A client's own copy of one list entry, as PAPI's native table keeps it.
struct ClientEntry {
  char name[64];
  int counter_mask;
};

// PAPI-style: copy every counter's list into one fixed table indexed by event id, marking on
// which counters each event may go. Fails (instead of overflowing) if an id does not fit.
template <typename Info>
void CopyIntoFixedTable(const Info &info, ClientEntry (&table)[kClientTableSize]) {
  memset(table, 0, sizeof table);
  for (int counter = 0; counter < info.maxpmcs; ++counter) {
    ASSERT_LE(info.maxevents[counter], kClientTableSize) << "counter " << counter;
    for (int i = 0; i < info.maxevents[counter]; ++i) {
      int id = info.list_events[counter][i].event_id;
      ASSERT_GE(id, 0);
      ASSERT_LT(id, kClientTableSize);
      snprintf(table[id].name, sizeof table[id].name, "%s",
               info.list_events[counter][i].short_name);
      table[id].counter_mask |= 1 << counter;
    }
  }
}

// The id of `short_name` found the way clients find it: by walking counter 0's list.
template <typename Info>
int FindInList(const Info &info, const char *short_name) {
  for (int i = 0; i < info.maxevents[0]; ++i) {
    if (strcmp(info.list_events[0][i].short_name, short_name) == 0) {
      return info.list_events[0][i].event_id;
    }
  }
  return -1;
}

TEST(aix_clients, EventIdIndexesItsCountersList) {
  pm_info2_t info;
  pm_groups_info_t groups;
  ASSERT_EQ(pm_initialize(kAllStatuses | PM_GET_GROUPS, &info, &groups, PM_CURRENT), 0);
  ASSERT_EQ(info.maxpmcs, MAX_COUNTERS);
  for (int counter = 0; counter < info.maxpmcs; ++counter) {
    ASSERT_GT(info.maxevents[counter], 0);
    ASSERT_LE(info.maxevents[counter], kClientTableSize) << "the default list bound";
    for (int i = 0; i < info.maxevents[counter]; ++i) {
      const pm_events2_t &entry = info.list_events[counter][i];
      ASSERT_EQ(entry.event_id, i) << entry.short_name << " on counter " << counter;
      // Indexing by the id reaches the same entry.
      EXPECT_STREQ(info.list_events[counter][entry.event_id].short_name, entry.short_name);
    }
  }
  ClientEntry table[kClientTableSize];
  CopyIntoFixedTable(info, table);
  EXPECT_STREQ(table[0].name, "PM_CYC");
  EXPECT_EQ(table[0].counter_mask, (1 << MAX_COUNTERS) - 1) << "any event on any counter";
}

// OpenJ9's findEventGroup and IPM walk events[0..maxpmcs-1] of every group through the lists;
// PAPI prints event_groups[group_id].
TEST(aix_clients, EveryGroupNamesARealEventOnEveryCounter) {
  pm_info2_t info;
  pm_groups_info_t groups;
  ASSERT_EQ(pm_initialize(kAllStatuses | PM_GET_GROUPS, &info, &groups, PM_CURRENT), 0);
  ASSERT_GT(groups.maxgroups, 0);
  for (int g = 0; g < groups.maxgroups; ++g) {
    const pm_groups_t &group = groups.event_groups[g];
    ASSERT_EQ(group.group_id, g) << group.short_name;
    EXPECT_EQ(groups.event_groups[group.group_id].short_name, group.short_name);
    for (int counter = 0; counter < info.maxpmcs; ++counter) {
      int ev = group.events[counter];
      ASSERT_NE(ev, COUNT_NOTHING) << group.short_name << " counter " << counter;
      ASSERT_GE(ev, 0);
      ASSERT_LT(ev, info.maxevents[counter]) << group.short_name << " counter " << counter;
      const pm_events2_t &event = info.list_events[counter][ev];
      EXPECT_EQ(event.event_id, ev);
      EXPECT_TRUE(event.status.b.verified || event.status.b.unverified || event.status.b.caveat);
    }
  }
  // The shipped groups keep their table order, from 0.
  EXPECT_STREQ(groups.event_groups[0].short_name, "pm_basic");
  EXPECT_STREQ(groups.event_groups[7].short_name, "pm_sw_basic");
}

class AixClientCounting : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(InitializeAll()); }
  void TearDown() override { pm_delete_program_mythread(); }
};

// Programs "group N" by the index it was found at, as OpenJ9 and IPM do.
TEST_F(AixClientCounting, GroupProgrammedByItsIndexCounts) {
  pm_info2_t info;
  pm_groups_info_t groups;
  ASSERT_EQ(pm_initialize(kAllStatuses | PM_GET_GROUPS, &info, &groups, PM_CURRENT), 0);
  int found = -1;
  for (int g = 0; g < groups.maxgroups; ++g) {
    if (strcmp(groups.event_groups[g].short_name, "pm_sw_basic") == 0) found = g;
  }
  ASSERT_GE(found, 0);
  const int task_clock = groups.event_groups[found].events[0];
  ASSERT_STREQ(info.list_events[0][task_clock].short_name, "task-clock");
  if (!info.list_events[0][task_clock].status.b.verified) GTEST_SKIP() << "no software events";
  pm_prog_t prog;
  memset(&prog, 0, sizeof prog);
  prog.mode.b.user = 1;
  prog.mode.b.kernel = 1;
  prog.mode.b.is_group = 1;
  prog.events[0] = found;
  ASSERT_EQ(pm_set_program_mythread(&prog), 0) << pm_strerror("set", 0);
  ASSERT_EQ(pm_start_mythread(), 0);
  CallGetppid(100);
  ASSERT_EQ(pm_stop_mythread(), 0);
  pm_data_t data;
  ASSERT_EQ(pm_get_data_mythread(&data), 0);
  EXPECT_GT(data.accu[0], 0) << "task-clock ran";
}

// Programs an event by the id found in the list, on the counter its list came from, and gets
// the exact count.
TEST_F(AixClientCounting, EventProgrammedByItsListIndexCountsExactly) {
  pm_info_t info;
  ASSERT_EQ(pm_init(kAllStatuses, &info), 0);  // the two-argument AIX 5.1 form
  int getppid = FindInList(info, kGetppid);
  if (getppid < 0) GTEST_SKIP() << "tracefs is not readable here";
  pm_prog_t prog;
  memset(&prog, 0, sizeof prog);
  prog.mode.b.user = 1;
  prog.mode.b.kernel = 1;
  for (int counter = 0; counter < MAX_COUNTERS; ++counter) prog.events[counter] = COUNT_NOTHING;
  prog.events[3] = getppid;
  pm_data_t data;
  ASSERT_TRUE(CountGetppidOnMyThread(&prog, 777, &data));
  EXPECT_EQ(data.accu[3], 777);
}

// An event outside the lists (a tracepoint outside the default set) still counts by name:
// its id lies past maxevents.
TEST_F(AixClientCounting, UnlistedEventCountsByName) {
  const pmapi::CatalogEvent *exit = pmapi::Catalog::Get().FindName("syscalls:sys_exit_getppid");
  if (!exit) GTEST_SKIP() << "tracefs is not readable here";
  ASSERT_GE(static_cast<size_t>(exit->id), pmapi::Catalog::Get().listed_count())
      << "sys_exit_* is outside the default listed tracepoints";
  pm_prog_t prog = MakeProgram({exit->id}, PM_USER | PM_KERNEL);
  pm_data_t data;
  ASSERT_TRUE(CountGetppidOnMyThread(&prog, 555, &data));
  EXPECT_EQ(data.accu[0], 555);
}

TEST(aix_clients, MoreTracepointsListedByPattern) {
  if (!pmapi::Catalog::Get().FindName("syscalls:sys_exit_getppid")) {
    GTEST_SKIP() << "tracefs is not readable here";
  }
  pmapi::SetSetting(pmapi::kTracepointPatternsVariable,
                    "syscalls:sys_exit_getppid, sched:nothing*");
  std::unique_ptr<pmapi::Catalog> catalog = pmapi::Catalog::Build();
  pmapi::SetSetting(pmapi::kTracepointPatternsVariable, "");
  const pmapi::CatalogEvent *exit = catalog->FindName("syscalls:sys_exit_getppid");
  ASSERT_NE(exit, nullptr);
  EXPECT_EQ(static_cast<size_t>(exit->id), catalog->listed_count() - 1) << "listed last";
  EXPECT_EQ(catalog->listed_count(), pmapi::Catalog::Get().listed_count() + 1);
  // The curated ids do not move.
  EXPECT_EQ(catalog->FindName("PM_CYC")->id, 0);
  EXPECT_EQ(catalog->FindName("cgroup-switches")->id,
            pmapi::Catalog::Get().FindName("cgroup-switches")->id);
}

// PAPI (AIX 4 builds), hypre and Tool Gear call pm_init with two arguments, sometimes with
// PM_GET_GROUPS in the filter; the three- and four-argument forms go to their own functions.
TEST(aix_clients, PmInitWithTwoThreeAndFourArguments) {
  pm_info_t info;
  memset(&info, 0, sizeof info);
  ASSERT_EQ(pm_init(kAllStatuses | PM_GET_GROUPS, &info), 0) << "no third argument is read";
  EXPECT_GT(info.maxevents[0], 0);
  ASSERT_EQ(pm_init(0, &info), 0) << "hypre's filter";
  EXPECT_EQ(info.list_events[0][1].event_id, 1);
  pm_groups_info_t groups;
  memset(&groups, 0, sizeof groups);
  ASSERT_EQ(pm_init(kAllStatuses | PM_GET_GROUPS, &info, &groups), 0);
  EXPECT_GT(groups.maxgroups, 0);
  pm_groups_info_t again;
  memset(&again, 0, sizeof again);
  ASSERT_EQ(pm_init(kAllStatuses | PM_GET_GROUPS, &info, &again, PM_CURRENT), 0);
  EXPECT_EQ(again.event_groups, groups.event_groups);
  // The variadic symbol itself (what dlsym finds) with a third argument.
  memset(&again, 0, sizeof again);
  ASSERT_EQ((pm_init)(kAllStatuses | PM_GET_GROUPS, &info, &again), 0);
  EXPECT_EQ(again.maxgroups, groups.maxgroups);
  ASSERT_EQ((pm_init)(kAllStatuses, &info), 0);
}

// PAPI's POWER builds pass their processor type. Every type the header names gets an answer:
// this machine's lists, that processor's libpfm4 events, or a clear Pmapi_InvalidProcType.
TEST(aix_clients, PmInitializeAcceptsEveryProcessorTypeTheHeaderNames) {
  for (int proctype = PM_CURRENT; proctype <= PM_MAXPROCTYPE; ++proctype) {
    SCOPED_TRACE(proctype);
    pm_info2_t info;
    pm_groups_info_t groups;
    memset(&info, 0, sizeof info);
    memset(&groups, 0, sizeof groups);
    int rc = pm_initialize(kAllStatuses | PM_GET_GROUPS, &info, &groups, proctype);
    if (rc == Pmapi_InvalidProcType) {
      std::string detail = pmapi::LastDetailFor(rc);
      EXPECT_NE(detail.find("proctype " + std::to_string(proctype)), std::string::npos) << detail;
      EXPECT_NE(detail.find("libpfm4"), std::string::npos) << detail;
      continue;
    }
    ASSERT_EQ(rc, 0);
    ASSERT_NE(info.proc_name, nullptr);
    for (int counter = 0; counter < info.maxpmcs; ++counter) {
      for (int i = 0; i < info.maxevents[counter]; ++i) {
        ASSERT_EQ(info.list_events[counter][i].event_id, i);
      }
    }
    for (int g = 0; g < groups.maxgroups; ++g) ASSERT_EQ(groups.event_groups[g].group_id, g);
  }
  pm_info2_t info;
  EXPECT_EQ(pm_initialize(kAllStatuses, &info, nullptr, PM_MAXPROCTYPE + 1), Pmapi_InvalidProcType);
  EXPECT_EQ(pm_initialize(kAllStatuses, &info, nullptr, -2), Pmapi_InvalidProcType);
  EXPECT_EQ(pm_initialize(kAllStatuses, &info, nullptr, pm_get_procindex()), 0);
}

// OpenJ9 logs thread_self(); the pm_*_thread calls take the same id.
TEST(aix_clients, ThreadSelfIsTheKernelThreadId) {
  EXPECT_EQ(thread_self(), static_cast<tid_t>(syscall(SYS_gettid)));
  tid_t other = 0;
  std::thread([&other] { other = thread_self(); }).join();
  EXPECT_NE(other, thread_self());
  EXPECT_GT(other, 0);
}

}  // namespace
