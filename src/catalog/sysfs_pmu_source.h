// Events the kernel's PMU drivers declare in sysfs:
// /sys/bus/event_source/devices/<pmu>/events/<event>, named "<pmu>/<event>" (e.g. msr/tsc).
#pragma once

#include <linux/perf_event.h>

#include <string>
#include <vector>

#include "base/status.h"
#include "catalog/catalog.h"
#include "catalog/status_probe.h"

namespace pmapi {

constexpr const char *kSysfsPmuRoot = "/sys/bus/event_source/devices";

struct SysfsPmuEvents {
  std::string pmu;
  std::vector<std::string> events;  // sorted
};

// Lists the PMUs that declare events, both sorted by name (readdir order is not stable).
std::vector<SysfsPmuEvents> ListSysfsPmuEvents();

// Catalog events for the listed PMUs, ids from kFirstSysfsPmuId. One probe per PMU (its first
// event that encodes) decides the status of all its events.
void AddSysfsPmuEvents(const std::vector<SysfsPmuEvents> &pmus, StatusProbe *probe,
                       std::vector<CatalogEvent> *events);

// Encodes "<pmu>/<event>": the PMU's `type` file, the event's terms ("event=0x3c,umask=1")
// placed into config/config1/config2 as the PMU's format/ files say.
Status EncodeSysfsPmuEvent(const std::string &name, perf_event_attr *attr);

}  // namespace pmapi
