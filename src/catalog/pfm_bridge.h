/* SPDX-License-Identifier: MIT */
// The only file that talks to libpfm4. Its header stays free of perf headers because
// <perfmon/pfmlib_perf_event.h> and <linux/perf_event.h> cannot be included together.
#pragma once

#include <stdint.h>

#include <string>
#include <vector>

namespace pmapi {

struct PfmPmu {
  std::string name;  // "perf", "amd64_fam19h_zen3"
  std::string desc;  // "AMD64 Fam19h Zen3"
  bool is_core = false;
};

struct PfmEvent {
  int pmu_index = 0;  // into the PMU list
  std::string name;   // "PERF_COUNT_HW_CPU_CYCLES"
  std::string equiv;  // "" or the event this one is an alias of
  std::string desc;
  uint64_t code = 0;  // the event code libpfm4 reports (the perf config for the perf PMU)
};

struct PfmEncoding {
  uint32_t type = 0;
  uint64_t config = 0;
  uint64_t config1 = 0;
  uint64_t config2 = 0;
};

// Calls pfm_initialize once per process (later calls return the first result). Returns "" or
// libpfm4's error text.
std::string PfmInitialize();

// The general-purpose and fixed counters of the first core PMU libpfm4 detects; false when it
// fails to initialize or detects none (Catalog's CoreCounterCounts).
bool PfmCoreCounters(int *programmable, int *fixed);

// The PMUs libpfm4 detected and their events, in libpfm4's enumeration order. The raw-code
// pseudo PMU "perf_raw" is left out: its one "event" is a syntax for raw codes, not an event.
void PfmEnumerate(std::vector<PfmPmu> *pmus, std::vector<PfmEvent> *events);

// The PMU libpfm4 numbers `pmu` (a pfm_pmu_t) and its events, whether or not it is detected on
// this machine: `*info` and `*events` (pmu_index 0). Returns "" or why there are none (libpfm4
// was built without that PMU's tables, as x86 builds are for POWER). `*present` tells whether
// libpfm4 detected the PMU here.
std::string PfmEventsOfPmu(int pmu, PfmPmu *info, bool *present, std::vector<PfmEvent> *events);

// "<version> <build id>" of the libpfm4 loaded in this process, for the catalog cache key
// (just "<version>" when the library carries no build id: a rebuild of the same version then
// looks the same). Does not initialize libpfm4.
std::string PfmLibraryIdentity();

// Encodes `event` ("pmu::EVENT:UMASK") for perf_event_open, user level by default. Returns ""
// or libpfm4's error text. Thread-safe.
std::string PfmEncode(const std::string &event, PfmEncoding *encoding);

}  // namespace pmapi
