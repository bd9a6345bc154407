// Reading the ARMv8 PMU's declared events and judging raw events by them.
#include "catalog/arm_pmu_events.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/kernel.h"
#include "catalog/status_probe.h"

namespace pmapi {
namespace {

// The event number field of the armv8_pmuv3 driver (format/event: config:0-15).
constexpr uint64_t kEventNumberMask = 0xffff;
// Common architectural and microarchitectural events are numbered below this; their
// PMCEID0/1 bits say whether the processor implements each, and the kernel shows just those.
constexpr uint64_t kCommonEventLimit = 0x40;
constexpr const char *kLacksMarker = "(not countable here: the processor's PMU does not implement ";

bool StartsWith(const std::string &text, const char *prefix) { return text.rfind(prefix, 0) == 0; }

// "event=0x0008\n" -> 8; false for anything else.
bool ParseEventTerm(const std::string &text, uint64_t *number) {
  const std::string key = "event=";
  if (!StartsWith(text, key.c_str())) return false;
  char *end = nullptr;
  *number = strtoull(text.c_str() + key.size(), &end, 0);
  return end != text.c_str() + key.size() && (*end == '\0' || *end == '\n' || *end == ',');
}

std::string Hex(uint64_t number) {
  char text[24];
  snprintf(text, sizeof text, "0x%02llx", static_cast<unsigned long long>(number));
  return text;
}

}  // namespace

ArmPmuEvents ListArmPmuEvents(const std::vector<SysfsPmuEvents> &pmus) {
  ArmPmuEvents arm;
  Kernel &kernel = CurrentKernel();
  for (const SysfsPmuEvents &pmu : pmus) {
    if (!StartsWith(pmu.pmu, "armv8_")) continue;
    const std::string dir = std::string(kSysfsPmuRoot) + "/" + pmu.pmu;
    std::string text;
    if (kernel.ReadFile(dir + "/type", &text) < 0) continue;
    arm.types.insert(static_cast<uint32_t>(strtoul(text.c_str(), nullptr, 0)));
    if (arm.pmu.empty()) arm.pmu = pmu.pmu;
    for (const std::string &name : pmu.events) {
      uint64_t number = 0;
      if (kernel.ReadFile(dir + "/events/" + name, &text) >= 0 && ParseEventTerm(text, &number)) {
        arm.implemented.insert(number & kEventNumberMask);
      }
    }
  }
  if (!arm.pmu.empty()) arm.types.insert(PERF_TYPE_RAW);
  return arm;
}

void JudgeArmEvent(const ArmPmuEvents &arm, const perf_event_attr &attr, CatalogEvent *event) {
  if (arm.pmu.empty() || event->status == EventStatus::kUnverified) return;
  if (arm.types.count(attr.type) == 0) return;
  const uint64_t number = attr.config & kEventNumberMask;
  if (arm.implemented.count(number) != 0) return;
  const std::string where = "/sys/bus/event_source/devices/" + arm.pmu + "/events";
  if (number < kCommonEventLimit) {
    event->status = EventStatus::kUnverified;
    AppendNote(&event->description, std::string(kLacksMarker) + "common event " + Hex(number) +
                                        "; its PMCEID registers leave it out of " + where +
                                        ", and the kernel would count it as 0)");
  } else {
    event->status = EventStatus::kCaveat;
    AppendNote(&event->description,
               "(implementation-defined event " + Hex(number) +
                   ": the PMU declares only common events in " + where +
                   ", so whether this processor implements it is not known; it counts 0 if not)");
  }
}

bool PmuLacksEvent(const CatalogEvent &event, std::string *why) {
  if (event.status != EventStatus::kUnverified) return false;
  const size_t at = event.description.rfind(kLacksMarker);
  if (at == std::string::npos) return false;
  const size_t start = at + strlen("(not countable here: ");
  *why = event.description.substr(start);
  if (!why->empty() && why->back() == ')') why->pop_back();
  return true;
}

}  // namespace pmapi
