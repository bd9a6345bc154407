// SPDX-License-Identifier: MIT
// Event groups through the C API: PM_GET_GROUPS lists from pm_initialize and pm_init, the
// statuses of the shipped groups on this machine, and programs with mode.b.is_group.
#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <fstream>
#include <string>

#include "base/last_error.h"
#include "base/settings.h"
#include "catalog/catalog.h"
#include "catalog/group_catalog.h"
#include "catalog/tables.h"
#include "support/counting.h"
#include "support/site_groups.h"

using namespace pmapi_test;

namespace {

constexpr int kAllStatuses = PM_VERIFIED | PM_UNVERIFIED | PM_CAVEAT;
constexpr int kSiteGroupTableId = 50100;
constexpr int kUnknownGroupId = 98765;

// A site group whose first member is the exactly countable getppid tracepoint, installed under
// $PMAPI_GROUPS_DIR before anything reads the groups (the group catalog is built once).
::testing::Environment *const g_site_groups =
    ::testing::AddGlobalTestEnvironment(new pmapi_test::SiteGroupTable(
        std::to_string(kSiteGroupTableId) +
        " | pm_test_getppid | getppid and time | Test group.\n  events " + kGetppid +
        " task-clock\n  metric calls_per_second = " + kGetppid + " / time\n"));

// The site group's client id: its index among the groups this machine lists (table 50100
// sorts after every shipped group).
int SiteGroupId() {
  const pmapi::ResolvedGroup *group = pmapi::GroupCatalog::Get().FindName("pm_test_getppid");
  return group ? group->id : -1;
}

bool AllMembersPass(const pmapi::ResolvedGroup &group, int filter) {
  if (group.id < 0) return false;
  for (const pmapi::CatalogEvent *member : group.members) {
    if (!pmapi::PassesFilter(member->status, filter)) return false;
  }
  return true;
}

// Checks one pm_groups_info_t against the group catalog for `filter`.
void ExpectListFor(int filter, const pm_groups_info_t &info) {
  const pmapi::GroupCatalog &groups = pmapi::GroupCatalog::Get();
  ASSERT_TRUE(groups.load_status().ok()) << groups.load_status().detail();
  int expected = 0;
  for (const pmapi::ResolvedGroup &group : groups.groups())
    expected += AllMembersPass(group, filter);
  ASSERT_EQ(info.maxgroups, expected) << "filter " << filter;
  if (expected == 0) {
    EXPECT_EQ(info.event_groups, nullptr);
  }
  for (int g = 0; g < info.maxgroups; ++g) {
    const pm_groups_t &listed = info.event_groups[g];
    const pmapi::ResolvedGroup *group = groups.FindId(listed.group_id);
    ASSERT_NE(group, nullptr) << listed.group_id;
    EXPECT_TRUE(AllMembersPass(*group, filter)) << group->record.short_name;
    EXPECT_STREQ(listed.short_name, group->record.short_name.c_str());
    EXPECT_STREQ(listed.long_name, group->record.long_name.c_str());
    EXPECT_STREQ(listed.description, group->record.description.c_str());
    if (g > 0) {
      EXPECT_LT(info.event_groups[g - 1].group_id, listed.group_id);
    }
    // Under the full filter the id is the index (AIX clients print event_groups[id]).
    if (filter == kAllStatuses) {
      EXPECT_EQ(listed.group_id, g);
    }
    for (int counter = 0; counter < MAX_COUNTERS; ++counter) {
      size_t member = static_cast<size_t>(counter);
      const pmapi::CatalogEvent *event = pmapi::Catalog::Get().FindId(listed.events[counter]);
      ASSERT_NE(event, nullptr) << "every counter names a real event";
      EXPECT_LT(static_cast<size_t>(listed.events[counter]), pmapi::Catalog::Get().listed_count());
      if (member < group->record.members.size()) {
        EXPECT_EQ(event->short_name, group->record.members[member]);
      } else {
        EXPECT_EQ(event->short_name, "cpu-migrations") << "the filler on free counters";
      }
    }
  }
}

TEST(group_api, GetGroupsListsExactlyTheGroupsWhoseMembersPassTheFilter) {
  for (int filter = 1; filter <= kAllStatuses; ++filter) {
    pm_info2_t info{};
    pm_groups_info_t groups{};
    ASSERT_EQ(pm_initialize(filter | PM_GET_GROUPS, &info, &groups, PM_CURRENT), 0);
    ExpectListFor(filter, groups);
    pm_groups_info_t again{};
    ASSERT_EQ(pm_initialize(filter | PM_GET_GROUPS, &info, &again, PM_CURRENT), 0);
    EXPECT_EQ(again.event_groups, groups.event_groups) << "one allocation per filter";
  }
}

TEST(group_api, PmInitFillsGroupsOnlyWithTheThirdArgument) {
  pm_info_t info{};
  pm_groups_info_t groups{};
  ASSERT_EQ(pm_init(kAllStatuses | PM_GET_GROUPS, &info, &groups), 0);
  ExpectListFor(kAllStatuses, groups);
  EXPECT_GT(groups.maxgroups, 0) << "the site group counts everywhere tracefs is readable";
  groups.maxgroups = -7;
  ASSERT_EQ(pm_init(kAllStatuses, &info), 0);  // the 2-argument AIX 5.1 form
  EXPECT_EQ(groups.maxgroups, -7);
}

// No hardware PMU here means unverified hardware groups and verified software ones; the
// assertions follow the catalog's member statuses, so they hold on any machine.
TEST(group_api, ShippedGroupStatusesFollowTheirMembersOnThisMachine) {
  const pmapi::GroupCatalog &groups = pmapi::GroupCatalog::Get();
  for (const pmapi::ResolvedGroup &group : groups.groups()) {
    SCOPED_TRACE(group.record.short_name);
    if (!group.missing_member.empty()) {
      EXPECT_EQ(pmapi::Catalog::Get().FindName(group.missing_member), nullptr);
      continue;
    }
    ASSERT_EQ(group.members.size(), group.record.members.size());
    bool all_verified = true, any_unverified = false;
    for (size_t i = 0; i < group.members.size(); ++i) {
      const pmapi::CatalogEvent *event = pmapi::Catalog::Get().FindName(group.record.members[i]);
      ASSERT_EQ(group.members[i], event);
      all_verified &= event->status == pmapi::EventStatus::kVerified;
      any_unverified |= event->status == pmapi::EventStatus::kUnverified;
    }
    pmapi::EventStatus expected = all_verified     ? pmapi::EventStatus::kVerified
                                  : any_unverified ? pmapi::EventStatus::kUnverified
                                                   : pmapi::EventStatus::kCaveat;
    EXPECT_EQ(group.status, expected);
  }
  // The portable groups exist on every machine; the software ones are verified wherever their
  // members are.
  for (const char *name : {"pm_basic", "pm_branch", "pm_cache", "pm_tlb", "pm_fp", "pm_sw_basic"}) {
    const pmapi::ResolvedGroup *group = groups.FindName(name);
    ASSERT_NE(group, nullptr) << name;
    EXPECT_EQ(group->missing_member, "") << name;
  }
  const pmapi::ResolvedGroup *cycles = groups.FindName("pm_basic");
  const pmapi::CatalogEvent *pm_cyc = pmapi::Catalog::Get().FindName("PM_CYC");
  if (pm_cyc->status == pmapi::EventStatus::kUnverified) {
    EXPECT_EQ(cycles->status, pmapi::EventStatus::kUnverified) << "no hardware PMU here";
  }
}

class GroupProgram : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(InitializeAll()); }
  void TearDown() override { pm_delete_program_mythread(); }
  static pm_prog_t GroupProgramFor(int group_id, int mode) {
    pm_prog_t prog = MakeProgram({group_id}, mode);
    prog.mode.b.is_group = 1;
    return prog;
  }
};

TEST_F(GroupProgram, CountsExactlyInTheGroupsEventOrder) {
  const int site_group = SiteGroupId();
  ASSERT_NE(pmapi::GroupCatalog::Get().FindId(site_group), nullptr);
  pm_prog_t prog = GroupProgramFor(site_group, PM_USER | PM_KERNEL);
  prog.events[3] = 12345;  // ignored with is_group, but handed back as passed
  pm_data_t data;
  ASSERT_TRUE(CountGetppidOnMyThread(&prog, 1500, &data));
  EXPECT_EQ(data.accu[0], 1500) << "counter 0 is the group's first member";
  EXPECT_GT(data.accu[1], 0) << "task-clock, the second member, counts nanoseconds";
  for (int counter = 2; counter < MAX_COUNTERS; ++counter) EXPECT_EQ(data.accu[counter], 0);

  pm_prog_t got;
  ASSERT_EQ(pm_get_program_mythread(&got), 0);
  EXPECT_TRUE(got.mode.b.is_group);
  EXPECT_TRUE(got.mode.b.user);
  EXPECT_TRUE(got.mode.b.kernel);
  EXPECT_EQ(got.events[0], site_group);
  EXPECT_EQ(got.events[1], COUNT_NOTHING);
  EXPECT_EQ(got.events[3], 12345);
}

TEST_F(GroupProgram, ShippedSyscallGroupCountsEveryCallOnce) {
  const pmapi::ResolvedGroup *group = pmapi::GroupCatalog::Get().FindName("pm_syscalls");
  ASSERT_NE(group, nullptr);
  if (!group->missing_member.empty()) GTEST_SKIP() << "no " << group->missing_member << " here";
  // raw_syscalls:sys_enter sees every system call of the thread between the enabling set and
  // the stop, the library's own included (the stop's ioctl enters before it disables). Measure
  // that fixed overhead with no calls, then 800 calls must add exactly 800: a group counted
  // twice, or a call lost, shows.
  auto count_calls = [&](long calls) -> long long {
    pm_prog_t prog = GroupProgramFor(group->id, PM_USER | PM_KERNEL | PM_COUNT);
    EXPECT_EQ(pm_set_program_mythread(&prog), 0) << pm_strerror("set", 0);
    CallGetppid(calls);
    EXPECT_EQ(pm_stop_mythread(), 0);
    pm_data_t data{};
    EXPECT_EQ(pm_get_data_mythread(&data), 0);
    EXPECT_EQ(pm_delete_program_mythread(), 0);
    return data.accu[0];
  };
  const long long overhead = count_calls(0);
  EXPECT_GE(overhead, 1) << "the stop's own ioctl";
  EXPECT_LE(overhead, kUnderSanitizer ? 64 : 4) << "the library makes few system calls here";
  EXPECT_EQ(count_calls(800), overhead + 800);
}

TEST_F(GroupProgram, UnknownGroupIdIsRefusedById) {
  pm_prog_t prog = GroupProgramFor(kUnknownGroupId, PM_USER);
  EXPECT_EQ(pm_set_program_mythread(&prog), Pmapi_InvalidGroup);
  std::string detail = pmapi::LastDetailFor(Pmapi_InvalidGroup);
  EXPECT_NE(detail.find(std::to_string(kUnknownGroupId)), std::string::npos) << detail;
  EXPECT_NE(pm_get_program_mythread(&prog), 0) << "nothing was programmed";
}

TEST_F(GroupProgram, GroupFilteredOutIsRefusedWithItsName) {
  const int site_group = SiteGroupId();
  const pmapi::ResolvedGroup *group = pmapi::GroupCatalog::Get().FindId(site_group);
  ASSERT_NE(group, nullptr);
  // Its members are verified here (tracepoint and task-clock): an unverified-only filter
  // excludes it.
  if (group->status != pmapi::EventStatus::kVerified) GTEST_SKIP() << "members not verified";
  pm_info2_t info{};
  ASSERT_EQ(pm_initialize(PM_UNVERIFIED, &info, nullptr, PM_CURRENT), 0);
  pm_prog_t prog = GroupProgramFor(site_group, PM_USER);
  EXPECT_EQ(pm_set_program_mythread(&prog), Pmapi_InvalidGroup);
  std::string detail = pmapi::LastDetailFor(Pmapi_InvalidGroup);
  EXPECT_NE(detail.find("pm_test_getppid"), std::string::npos) << detail;
  EXPECT_NE(detail.find("event-group id " + std::to_string(site_group)), std::string::npos)
      << detail;
}

}  // namespace
