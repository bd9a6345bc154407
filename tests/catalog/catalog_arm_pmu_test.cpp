// SPDX-License-Identifier: MIT
// The ARMv8 rule against a faked sysfs: the kernel opens every raw event number on an ARMv8
// PMU, so a common event the PMU's sysfs list leaves out is unverified (set refuses it), and
// an implementation-defined one, which the list never names, is a caveat. Never a silent 0.
#include <gtest/gtest.h>
#include <linux/perf_event.h>

#include <string>

#include "catalog/event_sources.h"
#include "support/fake_kernel.h"

namespace {

using pmapi::ArmPmuEvents;
using pmapi::CatalogEvent;
using pmapi::EventStatus;
using pmapi_test::FakeKernel;
using pmapi_test::ScopedKernel;

const std::string kPmu = "/sys/bus/event_source/devices/armv8_pmuv3";

// What QEMU's emulated PMU declares: software increment, instructions, cycles.
void FakeEmulatedArmPmu(FakeKernel *kernel) {
  kernel->SetDirectory("/sys/bus/event_source/devices", {"armv8_pmuv3", "software"});
  kernel->SetDirectory(kPmu + "/events", {"cpu_cycles", "inst_retired", "sw_incr"});
  kernel->SetFile(kPmu + "/type", "8\n");
  kernel->SetFile(kPmu + "/events/cpu_cycles", "event=0x0011\n");
  kernel->SetFile(kPmu + "/events/inst_retired", "event=0x0008\n");
  kernel->SetFile(kPmu + "/events/sw_incr", "event=0x0000\n");
  kernel->SetFile(kPmu + "/format/event", "config:0-15\n");
}

CatalogEvent Judged(const ArmPmuEvents &arm, uint32_t type, uint64_t config) {
  CatalogEvent event;
  event.description = "Level 1 data cache refill.";
  event.status = EventStatus::kVerified;  // as the probe left it: the kernel opened it
  perf_event_attr attr{};
  attr.type = type;
  attr.config = config;
  pmapi::JudgeArmEvent(arm, attr, &event);
  return event;
}

// Every test reads sysfs through a fake kernel installed for its duration.
class catalog_arm_pmu : public ::testing::Test {
 protected:
  // The emulated PMU's events as the catalog lists them from the faked sysfs.
  ArmPmuEvents EmulatedPmu() {
    FakeEmulatedArmPmu(&kernel_);
    return pmapi::ListArmPmuEvents(pmapi::ListSysfsPmuEvents());
  }
  FakeKernel kernel_;
  ScopedKernel installed_{&kernel_};
};

TEST_F(catalog_arm_pmu, ReadsTheDeclaredEventNumbers) {
  const ArmPmuEvents arm = EmulatedPmu();
  EXPECT_EQ(arm.pmu, "armv8_pmuv3");
  EXPECT_EQ(arm.implemented, (std::set<uint64_t>{0x0, 0x8, 0x11}));
  EXPECT_EQ(arm.types, (std::set<uint32_t>{PERF_TYPE_RAW, 8}));
}

TEST_F(catalog_arm_pmu, UndeclaredCommonEventIsUnverifiedAndSaysWhy) {
  const ArmPmuEvents arm = EmulatedPmu();
  CatalogEvent refill = Judged(arm, PERF_TYPE_RAW, 0x03);
  EXPECT_EQ(refill.status, EventStatus::kUnverified);
  EXPECT_EQ(refill.description,
            "Level 1 data cache refill. (not countable here: the processor's PMU does not "
            "implement common event 0x03; its PMCEID registers leave it out of "
            "/sys/bus/event_source/devices/armv8_pmuv3/events, and the kernel would count it as "
            "0)");
  EXPECT_EQ(Judged(arm, 8, 0x03).status, EventStatus::kUnverified) << "by the PMU's own type";
}

TEST_F(catalog_arm_pmu, SettingAnUndeclaredCommonEventIsRefusedWithTheReason) {
  const ArmPmuEvents arm = EmulatedPmu();
  std::string why;
  EXPECT_TRUE(pmapi::PmuLacksEvent(Judged(arm, PERF_TYPE_RAW, 0x03), &why));
  EXPECT_EQ(why.rfind("the processor's PMU does not implement common event 0x03;", 0), 0u) << why;
  EXPECT_EQ(why.back(), '0') << "the closing parenthesis is the description's, not the reason's";
  EXPECT_FALSE(pmapi::PmuLacksEvent(Judged(arm, PERF_TYPE_RAW, 0x40), &why)) << "a caveat counts";
  EXPECT_FALSE(pmapi::PmuLacksEvent(Judged(arm, PERF_TYPE_RAW, 0x08), &why));
}

TEST_F(catalog_arm_pmu, UndeclaredImplementationDefinedEventIsACaveat) {
  const ArmPmuEvents arm = EmulatedPmu();
  CatalogEvent event = Judged(arm, PERF_TYPE_RAW, 0x40);
  EXPECT_EQ(event.status, EventStatus::kCaveat);
  EXPECT_NE(event.description.find("implementation-defined event 0x40"), std::string::npos)
      << event.description;
  EXPECT_NE(event.description.find("it counts 0 if not"), std::string::npos) << event.description;
}

TEST_F(catalog_arm_pmu, DeclaredEventsAndOtherKindsAreLeftAlone) {
  const ArmPmuEvents arm = EmulatedPmu();
  EXPECT_EQ(Judged(arm, PERF_TYPE_RAW, 0x08).status, EventStatus::kVerified);
  EXPECT_EQ(Judged(arm, 8, 0x11).status, EventStatus::kVerified);
  EXPECT_EQ(Judged(arm, PERF_TYPE_HARDWARE, 0x03).status, EventStatus::kVerified)
      << "generic events are the kernel's to refuse";
  CatalogEvent same = Judged(arm, PERF_TYPE_RAW, 0x08);
  EXPECT_EQ(same.description, "Level 1 data cache refill.");
}

TEST_F(catalog_arm_pmu, WithoutAnArmPmuNothingIsJudged) {
  kernel_.SetDirectory("/sys/bus/event_source/devices", {"cpu", "msr"});
  const ArmPmuEvents arm = pmapi::ListArmPmuEvents(pmapi::ListSysfsPmuEvents());
  EXPECT_TRUE(arm.pmu.empty());
  EXPECT_EQ(Judged(arm, PERF_TYPE_RAW, 0x03).status, EventStatus::kVerified)
      << "an x86 raw event is not an ARM one";
}

}  // namespace
