// SPDX-License-Identifier: MIT
// Another processor's lists (pm_initialize with a type that is not this machine), exercised on
// another x86 family's libpfm4 PMU: an x86 libpfm4 has no POWER tables to try.
#include <gtest/gtest.h>
#include <perfmon/pfmlib.h>

#include <string.h>

#include <string>
#include <vector>

#include "catalog/pfm_bridge.h"
#include "catalog/processor_lists.h"

namespace {

// A PMU libpfm4 has tables for but does not detect here.
int AbsentPmu() {
  for (int pmu : {static_cast<int>(PFM_PMU_AMD64_FAM17H_ZEN2), static_cast<int>(PFM_PMU_INTEL_ICL),
                  static_cast<int>(PFM_PMU_INTEL_SKL)}) {
    pmapi::PfmPmu info;
    bool present = true;
    std::vector<pmapi::PfmEvent> events;
    if (pmapi::PfmEventsOfPmu(pmu, &info, &present, &events).empty() && !present) return pmu;
  }
  return -1;
}

TEST(catalog_processor_lists, AnotherProcessorsEventsAreListedByIndexAndUnverified) {
  int pmu = AbsentPmu();
  if (pmu < 0) GTEST_SKIP() << "this libpfm4 has none of the candidate PMUs, or detects them all";
  const pmapi::EventLists2 *lists = nullptr;
  const char *proc_name = nullptr;
  pmapi::Status status = pmapi::PfmPmuLists2(pmu, PM_VERIFIED | PM_UNVERIFIED, &lists, &proc_name);
  ASSERT_TRUE(status.ok()) << status.detail();
  ASSERT_GT(lists->maxevents[0], 10);
  EXPECT_NE(std::string(proc_name).find("not this machine"), std::string::npos) << proc_name;
  for (int counter = 0; counter < MAX_COUNTERS; ++counter) {
    ASSERT_EQ(lists->lists[counter], lists->lists[0]) << "one array for every counter";
    ASSERT_EQ(lists->maxevents[counter], lists->maxevents[0]);
  }
  for (int i = 0; i < lists->maxevents[0]; ++i) {
    const pm_events2_t &event = lists->lists[0][i];
    ASSERT_EQ(event.event_id, i);
    EXPECT_TRUE(event.status.b.unverified);
    EXPECT_FALSE(event.status.b.verified);
    EXPECT_GT(strlen(event.short_name), 0u);
  }
  // Nothing of another processor is verified here, so a verified-only filter lists none.
  const pmapi::EventLists2 *verified = nullptr;
  ASSERT_TRUE(pmapi::PfmPmuLists2(pmu, PM_VERIFIED, &verified, &proc_name).ok());
  EXPECT_EQ(verified->maxevents[0], 0);
  // The same filter returns the same arrays.
  const pmapi::EventLists2 *again = nullptr;
  ASSERT_TRUE(pmapi::PfmPmuLists2(pmu, PM_VERIFIED | PM_UNVERIFIED, &again, &proc_name).ok());
  EXPECT_EQ(again, lists);
}

TEST(catalog_processor_lists, ATypeWithoutTablesIsRefusedSayingWhy) {
  const pmapi::EventLists2 *lists = nullptr;
  const char *proc_name = nullptr;
  pmapi::Status status = pmapi::ForeignProcessorLists2(PM_PowerPC604, 7, &lists, &proc_name);
  EXPECT_EQ(status.code(), Pmapi_InvalidProcType);
  EXPECT_NE(status.detail().find("PowerPC 604"), std::string::npos) << status.detail();
  status = pmapi::ForeignProcessorLists2(PM_MAXPROCTYPE + 1, 7, &lists, &proc_name);
  EXPECT_EQ(status.code(), Pmapi_InvalidProcType);
  EXPECT_FALSE(pmapi::IsHostProcType(PM_PowerPC604));
  EXPECT_TRUE(pmapi::IsHostProcType(PM_CURRENT));
  EXPECT_TRUE(pmapi::IsHostProcType(pm_get_procindex()));
}

}  // namespace
