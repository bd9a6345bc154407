// SPDX-License-Identifier: MIT
// pm_initialize, pm_init and pm_get_procindex through the C API.
#include <gtest/gtest.h>

#include <string.h>

#include <set>
#include <string>

#include "base/last_error.h"
#include "catalog/catalog.h"
#include "catalog/event_groups.h"
#include "pmapi.h"

namespace {

using pmapi::Catalog;
using pmapi::CatalogEvent;
using pmapi::EventStatus;

constexpr int kAllStatuses = PM_VERIFIED | PM_UNVERIFIED | PM_CAVEAT;

std::string Detail(int code) { return pmapi::LastDetailFor(code); }

// The listed ids the catalog says pass `filter`: what every counter's list must hold, exactly.
std::set<int> ExpectedIds(int filter) {
  std::set<int> ids;
  for (const CatalogEvent &event : Catalog::Get().events()) {
    bool listed = static_cast<size_t>(event.id) < Catalog::Get().listed_count();
    if (listed && pmapi::PassesFilter(event.status, filter)) ids.insert(event.id);
  }
  return ids;
}

TEST(init_api, ProcindexIsTheLinuxHost) { EXPECT_EQ(pm_get_procindex(), PM_LINUX_HOST); }

TEST(init_api, BadArgumentsAreRefusedWithDetail) {
  pm_info2_t info{};
  EXPECT_EQ(pm_initialize(PM_VERIFIED, nullptr, nullptr, PM_CURRENT), Pmapi_InvalidArg);
  EXPECT_EQ(pm_initialize(0x100 | PM_VERIFIED, &info, nullptr, PM_CURRENT), Pmapi_InvalidFilter);
  EXPECT_NE(Detail(Pmapi_InvalidFilter).find("0x101"), std::string::npos);
  // This x86 libpfm4 has no POWER tables; the PowerPC 604 has none anywhere.
  for (int proctype : {PM_POWER7, PM_POWER10, PM_PowerPC604, 20, -2}) {
    EXPECT_EQ(pm_initialize(PM_VERIFIED, &info, nullptr, proctype), Pmapi_InvalidProcType)
        << proctype;
  }
  EXPECT_NE(Detail(Pmapi_InvalidProcType).find("-2"), std::string::npos);
  EXPECT_EQ(pm_init(PM_VERIFIED, nullptr), Pmapi_InvalidArg);
  EXPECT_EQ(pm_init(PM_VERIFIED, nullptr, nullptr), Pmapi_InvalidArg);
  EXPECT_EQ(pm_init(PM_VERIFIED, nullptr, nullptr, PM_CURRENT), Pmapi_InvalidArg);
}

// hypre calls pm_init(0, &info): a filter that selects no status selects every status.
TEST(init_api, FilterWithoutStatusSelectsEveryStatus) {
  pm_info_t old_info{};
  ASSERT_EQ(pm_init(0, &old_info), 0);
  EXPECT_EQ(pmapi::ActiveFilter(), kAllStatuses);
  EXPECT_EQ(old_info.maxevents[0], static_cast<int>(ExpectedIds(kAllStatuses).size()));
  pm_info2_t info{};
  pm_groups_info_t groups{};
  ASSERT_EQ(pm_initialize(PM_GET_GROUPS, &info, &groups, PM_CURRENT), 0);
  EXPECT_EQ(info.maxevents[0], static_cast<int>(Catalog::Get().listed_count()));
  EXPECT_EQ(groups.maxgroups, pmapi::EventGroupsForFilter(kAllStatuses).count);
}

TEST(init_api, EachFilterListsExactlyItsStatuses) {
  for (int filter = 1; filter <= kAllStatuses; ++filter) {
    pm_info2_t info{};
    ASSERT_EQ(pm_initialize(filter, &info, nullptr, PM_CURRENT), 0) << filter;
    EXPECT_EQ(pmapi::ActiveFilter(), filter);
    ASSERT_EQ(info.maxpmcs, MAX_COUNTERS);
    std::set<int> expected = ExpectedIds(filter);
    for (int counter = 0; counter < info.maxpmcs; ++counter) {
      ASSERT_EQ(info.maxevents[counter], static_cast<int>(expected.size())) << filter;
      std::set<int> listed;
      for (int i = 0; i < info.maxevents[counter]; ++i) {
        const pm_events2_t &event = info.list_events[counter][i];
        listed.insert(event.event_id);
        const CatalogEvent *source = Catalog::Get().FindId(event.event_id);
        ASSERT_NE(source, nullptr);
        EXPECT_EQ(event.short_name, source->short_name);
        EXPECT_EQ(event.status.b.verified, source->status == EventStatus::kVerified);
        EXPECT_EQ(event.status.b.unverified, source->status == EventStatus::kUnverified);
        EXPECT_EQ(event.status.b.caveat, source->status == EventStatus::kCaveat);
        EXPECT_TRUE((filter & PM_VERIFIED && event.status.b.verified) ||
                    (filter & PM_UNVERIFIED && event.status.b.unverified) ||
                    (filter & PM_CAVEAT && event.status.b.caveat));
      }
      EXPECT_EQ(listed, expected) << "filter " << filter << " counter " << counter;
    }
  }
}

TEST(init_api, CyclesAndInstructionsAreIdsZeroAndOneOnEveryCounter) {
  pm_info2_t info{};
  ASSERT_EQ(pm_initialize(kAllStatuses, &info, nullptr, PM_CURRENT), 0);
  ASSERT_GT(info.maxevents[0], 1);
  for (int counter = 0; counter < info.maxpmcs; ++counter) {
    EXPECT_STREQ(info.list_events[counter][0].short_name, "PM_CYC");
    EXPECT_EQ(info.list_events[counter][0].event_id, 0);
    EXPECT_STREQ(info.list_events[counter][1].short_name, "PM_INST_CMPL");
    EXPECT_EQ(info.list_events[counter][1].event_id, 1);
  }
  EXPECT_NE(info.proc_name, nullptr);
  EXPECT_GT(strlen(info.proc_name), 0u);
  EXPECT_EQ(info.thresholdmult, 0);
  EXPECT_EQ(info.hthresholdmult, 0);
  EXPECT_EQ(info.Hthresholdmult, 0);
  EXPECT_EQ(info.proc_feature.b.hypervisor, 0u);
}

TEST(init_api, RepeatedInitializationReturnsTheSameLists) {
  pm_info2_t first{};
  pm_info2_t second{};
  ASSERT_EQ(pm_initialize(PM_VERIFIED, &first, nullptr, PM_CURRENT), 0);
  ASSERT_EQ(pm_initialize(PM_VERIFIED, &second, nullptr, PM_LINUX_HOST), 0);
  EXPECT_EQ(first.list_events[0], second.list_events[0]) << "built once per filter, kept";
  EXPECT_EQ(first.maxevents[3], second.maxevents[3]);
  EXPECT_TRUE(pmapi::LibraryInitialized());
}

TEST(init_api, GroupsOnlyWithGetGroups) {
  pm_info2_t info{};
  pm_groups_info_t groups;
  groups.maxgroups = 99;
  groups.event_groups = reinterpret_cast<pm_groups_t *>(&groups);
  ASSERT_EQ(pm_initialize(kAllStatuses | PM_GET_GROUPS, &info, &groups, PM_CURRENT), 0);
  // The lists themselves are checked in group_api_test.cpp.
  EXPECT_EQ(groups.maxgroups, pmapi::EventGroupsForFilter(kAllStatuses).count);
  EXPECT_EQ(groups.event_groups, pmapi::EventGroupsForFilter(kAllStatuses).groups);
  // Without PM_GET_GROUPS the structure is not touched.
  groups.maxgroups = 99;
  ASSERT_EQ(pm_initialize(kAllStatuses, &info, &groups, PM_CURRENT), 0);
  EXPECT_EQ(groups.maxgroups, 99);
}

TEST(init_api, PmInitWithTwoAndThreeArguments) {
  pm_info_t info{};
  ASSERT_EQ(pm_init(PM_VERIFIED | PM_UNVERIFIED, &info), 0);  // the AIX 5.1 form
  ASSERT_EQ(info.maxpmcs, MAX_COUNTERS);
  std::set<int> expected = ExpectedIds(PM_VERIFIED | PM_UNVERIFIED);
  ASSERT_EQ(info.maxevents[0], static_cast<int>(expected.size()));
  EXPECT_STREQ(info.list_events[1][0].short_name, "PM_CYC");
  for (int i = 0; i < info.maxevents[2]; ++i) {
    const pm_events_t &event = info.list_events[2][i];
    const CatalogEvent *source = Catalog::Get().FindId(event.event_id);
    ASSERT_NE(source, nullptr);
    char expected_status = source->status == EventStatus::kVerified ? 'v' : 'u';
    EXPECT_EQ(event.status, expected_status) << event.short_name;
    EXPECT_EQ(event.threshold, 'n');
  }
  pm_groups_info_t groups{};
  groups.maxgroups = 5;
  ASSERT_EQ(pm_init(PM_VERIFIED | PM_GET_GROUPS, &info, &groups), 0);
  EXPECT_EQ(groups.maxgroups, pmapi::EventGroupsForFilter(PM_VERIFIED).count);
  EXPECT_EQ(pmapi::ActiveFilter(), PM_VERIFIED);
}

TEST(init_api, ResolveChecksTheActiveFilter) {
  pm_info2_t info{};
  ASSERT_EQ(pm_initialize(PM_VERIFIED, &info, nullptr, PM_CURRENT), 0);
  const CatalogEvent *task_clock = Catalog::Get().FindName("task-clock");
  ASSERT_NE(task_clock, nullptr);
  perf_event_attr attr{};
  const CatalogEvent *resolved = nullptr;
  pmapi::Status status = pmapi::ResolveEventForCounter(task_clock->id, 3, &attr, &resolved);
  if (task_clock->status == EventStatus::kVerified) {
    ASSERT_TRUE(status.ok()) << status.detail();
    EXPECT_EQ(resolved, task_clock);
    EXPECT_EQ(attr.type, static_cast<uint32_t>(PERF_TYPE_SOFTWARE));
    EXPECT_EQ(attr.config, static_cast<uint64_t>(PERF_COUNT_SW_TASK_CLOCK));
  } else {
    EXPECT_EQ(status.code(), Pmapi_InvalidEvent);
  }
  status = pmapi::ResolveEventForCounter(123456789, 2, &attr, nullptr);
  EXPECT_EQ(status.code(), Pmapi_InvalidEvent);
  EXPECT_NE(status.detail().find("event id 123456789 on counter 2 is not in the list "
                                 "pm_initialize returned for filter 0x1"),
            std::string::npos)
      << status.detail();
  EXPECT_EQ(pmapi::ResolveEventForCounter(task_clock->id, MAX_COUNTERS, &attr, nullptr).code(),
            Pmapi_InvalidArg);
  // An event whose status the filter excludes is refused, and the detail says why.
  for (const CatalogEvent &event : Catalog::Get().events()) {
    if (event.status == EventStatus::kUnverified) {
      status = pmapi::ResolveEventForCounter(event.id, 0, &attr, nullptr);
      EXPECT_EQ(status.code(), Pmapi_InvalidEvent);
      EXPECT_NE(status.detail().find("unverified"), std::string::npos) << status.detail();
      break;
    }
  }
}

}  // namespace
