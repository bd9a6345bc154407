// Which ARMv8 PMU events this processor implements, as its kernel driver lists them. The
// kernel opens any raw event number on an ARMv8 PMU, implemented or not, and one the PMU does
// not implement counts 0; only sysfs tells them apart: armv8_pmuv3 lists under
// /sys/bus/event_source/devices/<pmu>/events/ exactly the common events its PMCEID registers
// declare. Implementation-defined events (0x40 and up) are never declared there.
#pragma once

#include <linux/perf_event.h>
#include <stdint.h>

#include <set>
#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "catalog/sysfs_pmu_source.h"

namespace pmapi {

struct ArmPmuEvents {
  std::string pmu;                 // the first ARMv8 PMU found ("armv8_pmuv3_0"); "" if none
  std::set<uint32_t> types;        // its perf type numbers (PERF_TYPE_RAW reaches it too)
  std::set<uint64_t> implemented;  // event numbers its events/ files name
};

// Reads the events of the listed PMUs named armv8_* (the kernel's arm_pmuv3 driver). On a
// big.LITTLE machine an event counts as implemented if any of its PMUs lists it.
ArmPmuEvents ListArmPmuEvents(const std::vector<SysfsPmuEvents> &pmus);

// For an event encoded as `attr` with status already set by a probe: when `attr` goes to the
// ARMv8 PMU and the probe accepted it, a common event number (below 0x40) the PMU does not list
// becomes unverified, and any other unlisted number a caveat, each saying why.
void JudgeArmEvent(const ArmPmuEvents &arm, const perf_event_attr &attr, CatalogEvent *event);

// True when JudgeArmEvent found `event` missing from the PMU (the judgement lives in the
// description, so it survives the catalog cache); `*why` is its reason.
bool PmuLacksEvent(const CatalogEvent &event, std::string *why);

}  // namespace pmapi
