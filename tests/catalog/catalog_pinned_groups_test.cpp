// SPDX-License-Identifier: MIT
// Client ids pinned by a site group table ("client-id N", issue 26 item 11): AIX clients hard-code
// group ids (DrHook programs group 60 and has defaults 150 and 186), so a site group must be able
// to sit at exactly that id, far past the shipped groups, without moving them. The list under
// the full filter then reaches the largest pin, entry k is id k, and the ids nobody has are gap
// entries that every client can walk; the pinned ids program and count like any other.
#include <gtest/gtest.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <fstream>
#include <string>

#include "base/settings.h"
#include "catalog/group_catalog.h"
#include "catalog/tables.h"
#include "pmapi_metrics.h"
#include "support/counting.h"
#include "support/site_groups.h"

using namespace pmapi_test;

namespace {

constexpr int kAllStatuses = PM_VERIFIED | PM_UNVERIFIED | PM_CAVEAT;
constexpr int kPins[] = {60, 150, 186, 1000};
constexpr const char *kPinnedNames[] = {"pm_hpmcount2", "pm_drhook_150", "pm_drhook_186",
                                        "pm_far_away"};

// The site table under $PMAPI_GROUPS_DIR, written before anything reads the groups (the group
// catalog is built once per process): four pinned groups, listed out of id order on purpose,
// and one unpinned site group, which takes the next dense id after the shipped ones.
std::string PinnedSiteGroupsText() {
  const std::string ppid = kGetppid;
  return "# DrHook's groups, at the ids it hard-codes\n"
         "50400 | pm_far_away | Far away | Pinned far past the shipped ids.\n"
         "  client-id 1000\n  events " +
         ppid +
         "\n"
         "50401 | pm_hpmcount2 | DrHook's group | getppid calls and task-clock.\n"
         "  events " +
         ppid +
         " task-clock\n  client-id 60\n"
         "  metric calls = " +
         ppid +
         "\n"
         "50402 | pm_drhook_150 | Default 150 | getppid calls.\n"
         "  client-id 150\n  events " +
         ppid +
         "\n"
         "50403 | pm_drhook_186 | Default 186 | getppid calls.\n"
         "  client-id 186\n  events " +
         ppid +
         "\n"
         "50404 | pm_site_dense | Unpinned | Takes the next dense id.\n"
         "  events " +
         ppid + "\n";
}
::testing::Environment *const g_site =
    ::testing::AddGlobalTestEnvironment(new pmapi_test::SiteGroupTable(PinnedSiteGroupsText()));

class PinnedGroups : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!InitializeAll()) return;
    ready_ = true;
    int rc = pm_initialize(kAllStatuses | PM_GET_GROUPS, &info_, &groups_, PM_CURRENT);
    ASSERT_EQ(rc, 0) << pm_strerror("pm_initialize", rc);
  }
  void TearDown() override {
    pm_delete_program_mythread();
    pm_delete_program_mygroup();
  }
  bool ready_ = false;
  pm_info2_t info_;
  pm_groups_info_t groups_;
};

TEST_F(PinnedGroups, EachPinnedGroupHasExactlyItsIdAndTheShippedOnesStay) {
  if (!ready_) return;
  ASSERT_TRUE(pmapi::GroupCatalog::Get().load_status().ok())
      << pmapi::GroupCatalog::Get().load_status().detail();
  ASSERT_EQ(groups_.maxgroups, 1001) << "the list reaches the largest pinned id";
  for (size_t i = 0; i < sizeof kPins / sizeof kPins[0]; ++i) {
    const pm_groups_t &group = groups_.event_groups[kPins[i]];
    EXPECT_EQ(group.group_id, kPins[i]);
    EXPECT_STREQ(group.short_name, kPinnedNames[i]);
  }
  EXPECT_STREQ(groups_.event_groups[0].short_name, "pm_basic");
  EXPECT_STREQ(groups_.event_groups[7].short_name, "pm_sw_basic");
  // The unpinned site group comes right after the shipped groups, before every gap.
  const pmapi::ResolvedGroup *dense = pmapi::GroupCatalog::Get().FindName("pm_site_dense");
  ASSERT_NE(dense, nullptr);
  ASSERT_GE(dense->id, 8);
  ASSERT_LT(dense->id, 60);
  EXPECT_STREQ(groups_.event_groups[dense->id].short_name, "pm_site_dense");
  EXPECT_STREQ(groups_.event_groups[dense->id + 1].short_name, "") << "the first gap";
}

// What the AIX clients do with the list (tests/api/aix_clients_test.cpp): walk every entry, check
// its id is its index, look every events[counter] up in the lists, search by short name.
TEST_F(PinnedGroups, EveryEntryGapsIncludedIsWalkableAndGapsSayNoGroup) {
  if (!ready_) return;
  int gaps = 0;
  for (int g = 0; g < groups_.maxgroups; ++g) {
    const pm_groups_t &group = groups_.event_groups[g];
    ASSERT_EQ(group.group_id, g);
    ASSERT_NE(group.short_name, nullptr);
    ASSERT_NE(group.long_name, nullptr);
    ASSERT_NE(group.description, nullptr);
    for (int counter = 0; counter < info_.maxpmcs; ++counter) {
      const int ev = group.events[counter];
      ASSERT_GE(ev, 0) << g;
      ASSERT_LT(ev, info_.maxevents[counter]) << g;
      EXPECT_EQ(info_.list_events[counter][ev].event_id, ev);
    }
    if (group.short_name[0] == '\0') {
      ++gaps;
      EXPECT_STREQ(group.long_name, "no group") << g;
      EXPECT_EQ(pmapi::GroupCatalog::Get().FindId(g), nullptr) << g;
    }
  }
  EXPECT_GT(gaps, 1000 - 60) << "every id no group has is a gap";
  // Narrower filters list the subset, by increasing id, without gaps.
  pm_info2_t info;
  pm_groups_info_t verified;
  ASSERT_EQ(pm_initialize(PM_VERIFIED | PM_GET_GROUPS, &info, &verified, PM_CURRENT), 0);
  int last = -1;
  bool far = false;
  for (int g = 0; g < verified.maxgroups; ++g) {
    EXPECT_GT(verified.event_groups[g].group_id, last);
    last = verified.event_groups[g].group_id;
    EXPECT_STRNE(verified.event_groups[g].short_name, "");
    far = far || last == 1000;
  }
  EXPECT_TRUE(far) << "pm_far_away (verified: a tracepoint) is listed under PM_VERIFIED";
  ASSERT_EQ(pm_initialize(kAllStatuses | PM_GET_GROUPS, &info, &verified, PM_CURRENT), 0);
}

TEST_F(PinnedGroups, PinnedIdsProgramAndCountExactly) {
  if (!ready_) return;
  for (int id : kPins) {
    SCOPED_TRACE(id);
    pm_prog_t prog = MakeProgram({id}, PM_USER | PM_KERNEL);
    prog.mode.b.is_group = 1;
    pm_data_t data;
    ASSERT_TRUE(CountGetppidOnMyThread(&prog, 61, &data));
    EXPECT_EQ(data.accu[0], 61);
    if (id == 60) {
      EXPECT_GT(data.accu[1], 0) << "task-clock, the second member";
    }
    ASSERT_EQ(pm_delete_program_mythread(), 0);
  }
  // The process-group scope, with DrHook's group.
  pm_prog_t prog = MakeProgram({60}, PM_USER | PM_KERNEL);
  prog.mode.b.is_group = 1;
  int rc = pm_set_program_mygroup(&prog);
  ASSERT_EQ(rc, 0) << pm_strerror("pm_set_program_mygroup", rc);
  ASSERT_EQ(pm_start_mygroup(), 0);
  CallGetppid(37);
  ASSERT_EQ(pm_stop_mygroup(), 0);
  pm_data_t data;
  ASSERT_EQ(pm_get_data_mygroup(&data), 0);
  EXPECT_EQ(data.accu[0], 37);
  ASSERT_EQ(pm_delete_program_mygroup(), 0);
  // The metrics extension takes the pinned id too.
  pm_group_metrics_t metrics;
  ASSERT_EQ(pm_get_group_metrics(60, &metrics), 0);
  EXPECT_EQ(metrics.maxmetrics, 1);
}

TEST_F(PinnedGroups, AGapIdIsRefusedNamingTheIdsThatExist) {
  if (!ready_) return;
  for (int gap : {59, 61, 187, 999, 1001}) {
    SCOPED_TRACE(gap);
    pm_prog_t prog = MakeProgram({gap}, PM_USER | PM_KERNEL);
    prog.mode.b.is_group = 1;
    EXPECT_EQ(pm_set_program_mythread(&prog), Pmapi_InvalidGroup);
    std::string message = pm_strerror("pm_set_program_mythread", Pmapi_InvalidGroup);
    EXPECT_NE(message.find("event-group id " + std::to_string(gap) + " is unknown"),
              std::string::npos)
        << message;
    EXPECT_NE(message.find(", 60, 150, 186 and 1000 (pinned by a site table)"), std::string::npos)
        << message;
    pm_group_metrics_t metrics;
    EXPECT_EQ(pm_get_group_metrics(gap, &metrics), Pmapi_InvalidGroup);
  }
}

}  // namespace
