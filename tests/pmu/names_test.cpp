// SPDX-License-Identifier: MIT
// Events by every kind of name, end to end on the emulated PMU: the catalog's PM_ names,
// libpfm4's names for this processor, and the kernel's sysfs name each count the same loop
// exactly. Events the emulation does not implement are refused with the reason, never a 0.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "guest_support.h"
#include "pmapi_catalog.h"
#include "program_test.h"

using namespace pmu_guest;

namespace {

using NamesHardware = ProgramTest<pm_delete_program_mythread>;

TEST_F(NamesHardware, EveryNameOfInstructionsCountsTheLoopExactly) {
  const std::string table = PfmTable();
  ASSERT_FALSE(table.empty()) << "a CPU model the suite does not know (docs/hardware.md)";
  // POWER: libpfm4's PM_INST_CMPL (bound to PMC1) keeps its prefix, the table's name being
  // the kernel's, which is the same POWER event on any counter.
  const std::vector<std::string> names =
      kPower ? std::vector<std::string>{"PM_INST_CMPL", table + "::PM_INST_CMPL",
                                        "cpu/instructions", "perf::INSTRUCTIONS"}
             : std::vector<std::string>{"PM_INST_CMPL", table + "::INST_RETIRED",
                                        "armv8_pmuv3/inst_retired", "perf::INSTRUCTIONS"};
  pm_prog_t prog = MakeProgram(
      {EventId(names[0]), EventId(names[1]), EventId(names[2]), EventId(names[3])}, PM_USER);
  ASSERT_EQ(pm_set_program_mythread(&prog), 0) << pm_strerror("pm_set_program_mythread", 0);
  const LoopRuns runs = RunShortAndLong(MyThread(), Loop);
  for (int counter = 0; counter < 4; ++counter) {
    EXPECT_EQ(runs.Difference(counter), kLoopDifference) << names[counter];
  }
}

// The kernel refuses the generic branch and cache events the emulated PMU lacks (ENOENT):
// pm_initialize lists them unverified with that reason, and setting one fails saying why.
TEST_F(NamesHardware, UnimplementedEventsAreRefusedWithTheReason) {
  if (kPower) GTEST_SKIP() << "the emulated POWER PMU opens every event code (others read 0)";
  pm_info2_t info;
  ASSERT_EQ(pm_initialize(PM_VERIFIED | PM_UNVERIFIED | PM_CAVEAT, &info, nullptr, PM_CURRENT), 0);
  for (const char *name : {"PM_BR_CMPL", "PM_BR_MPRED_CMPL", "PM_LD_MISS_L1"}) {
    const pm_events2_t *found = nullptr;
    for (int e = 0; e < info.maxevents[0]; ++e) {
      if (std::string(info.list_events[0][e].short_name) == name) found = &info.list_events[0][e];
    }
    ASSERT_NE(found, nullptr) << name << " is not listed";
    EXPECT_FALSE(found->status.b.verified) << name;
    EXPECT_NE(std::string(found->description).find("ENOENT"), std::string::npos)
        << name << ": " << found->description;
    pm_prog_t prog = MakeProgram({found->event_id}, PM_USER);
    const int rc = pm_set_program_mythread(&prog);
    EXPECT_NE(rc, 0) << name << " was accepted";
    const std::string message = pm_strerror("pm_set_program_mythread", rc);
    printf("%s: %s\n", name, message.c_str());
    EXPECT_NE(message.find(name), std::string::npos) << message;
    pm_delete_program_mythread();
  }
}

// libpfm4's names are raw event numbers, which the kernel opens whether or not the PMU
// implements them (and then counts 0). The PMU's sysfs list is its PMCEID registers: a common
// event it leaves out (L1D_CACHE_REFILL, 0x03, which the emulation lacks) is listed unverified
// saying so, and refused at set; an implementation-defined one is at least a caveat.
TEST_F(NamesHardware, RawEventsThePmuDoesNotImplementAreNotVerified) {
  if (kPower) GTEST_SKIP() << "ARMv8's PMCEID list; POWER's kernel has none to judge events by";
  const std::string table = PfmTable();
  ASSERT_FALSE(table.empty()) << "a CPU model the suite does not know (docs/hardware.md)";
  pm_info2_t info;
  ASSERT_EQ(pm_initialize(PM_VERIFIED | PM_UNVERIFIED | PM_CAVEAT, &info, nullptr, PM_CURRENT), 0);
  const pm_events2_t *refill = nullptr;
  const pm_events2_t *retired = nullptr;
  int verified_raw = 0, unverified_raw = 0, caveat_raw = 0;
  for (int e = 0; e < info.maxevents[0]; ++e) {
    const pm_events2_t &event = info.list_events[0][e];
    const std::string name = event.short_name;
    if (name == table + "::L1D_CACHE_REFILL") refill = &event;
    if (name == table + "::INST_RETIRED") retired = &event;
    if (name.rfind(table + "::", 0) == 0) {
      verified_raw += event.status.b.verified;
      unverified_raw += event.status.b.unverified;
      caveat_raw += event.status.b.caveat;
    }
  }
  printf("%s: %d verified, %d unverified, %d caveat\n", table.c_str(), verified_raw, unverified_raw,
         caveat_raw);
  ASSERT_NE(retired, nullptr);
  EXPECT_TRUE(retired->status.b.verified) << retired->description;
  ASSERT_NE(refill, nullptr);
  EXPECT_TRUE(refill->status.b.unverified) << refill->description;
  EXPECT_NE(std::string(refill->description).find("does not implement common event 0x03"),
            std::string::npos)
      << refill->description;
  pm_prog_t prog = MakeProgram({refill->event_id}, PM_USER);
  const int rc = pm_set_program_mythread(&prog);
  EXPECT_NE(rc, 0) << "L1D_CACHE_REFILL was accepted";
  const std::string message = pm_strerror("pm_set_program_mythread", rc);
  printf("%s\n", message.c_str());
  EXPECT_NE(message.find("L1D_CACHE_REFILL"), std::string::npos) << message;
  EXPECT_NE(message.find("does not implement"), std::string::npos) << message;
  EXPECT_LE(verified_raw, 8) << "the emulation implements a handful of common events";
}

// On POWER the catalog lists the processor's events under their AIX names: libpfm4's
// power9::PM_L1_ICACHE_MISS is PM_L1_ICACHE_MISS, and the prefixed spelling names the same event.
TEST_F(NamesHardware, PowerEventsAreListedUnderTheirAixNames) {
  if (!kPower) GTEST_SKIP() << "POWER's event names";
  const std::string table = PfmTable();
  pm_info2_t info;
  ASSERT_EQ(pm_initialize(PM_VERIFIED | PM_UNVERIFIED | PM_CAVEAT, &info, nullptr, PM_CURRENT), 0);
  printf("processor: %s\n", info.proc_name);
  EXPECT_NE(std::string(info.proc_name).find("POWER"), std::string::npos);
  int bare = COUNT_NOTHING, prefixed = COUNT_NOTHING;
  ASSERT_EQ(pm_catalog_add_event("PM_L1_ICACHE_MISS", &bare), 0);
  ASSERT_EQ(pm_catalog_add_event((table + "::PM_L1_ICACHE_MISS").c_str(), &prefixed), 0);
  EXPECT_EQ(bare, prefixed) << "one event, two spellings";
  // Listed (the hardware events within the lists' bound of 1,024): by their AIX names, but for
  // the few a table event has.
  int aix_named = 0, prefixed_listed = 0;
  for (int e = 0; e < info.maxevents[0]; ++e) {
    const std::string name = info.list_events[0][e].short_name;
    aix_named += name.rfind("PM_", 0) == 0;
    prefixed_listed += name.rfind(table + "::", 0) == 0;
  }
  printf("listed: %d PM_ names, %d %s:: names\n", aix_named, prefixed_listed, table.c_str());
  EXPECT_GT(aix_named, 500);
  EXPECT_LT(prefixed_listed, 20);
  if (bare < info.maxevents[0]) {
    EXPECT_EQ(std::string(info.list_events[0][bare].short_name), "PM_L1_ICACHE_MISS");
  }
}

}  // namespace
