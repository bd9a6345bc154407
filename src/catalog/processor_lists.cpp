// SPDX-License-Identifier: MIT
// Mapping AIX processor types to libpfm4 PMUs and listing their events.
#include "catalog/processor_lists.h"

#include <perfmon/pfmlib.h>

#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "catalog/catalog.h"
#include "catalog/pfm_bridge.h"

namespace pmapi {
namespace {

struct ProcType {
  int proctype;
  const char *name;
  int pfm_pmu;  // PFM_PMU_NONE: libpfm4 has no tables for it
};

// Every type the header names. The POWER4-II, POWER5-II and 970MP types share their
// family's libpfm4 tables where libpfm4 has one model for both.
constexpr ProcType kProcTypes[] = {
    {PM_PowerPC604, "PowerPC 604", PFM_PMU_NONE},
    {PM_PowerPC604e, "PowerPC 604e", PFM_PMU_NONE},
    {PM_RS64_II, "RS64-II", PFM_PMU_NONE},
    {PM_POWER3, "POWER3", PFM_PMU_POWER3},
    {PM_RS64_III, "RS64-III", PFM_PMU_NONE},
    {PM_POWER3_II, "POWER3-II", PFM_PMU_POWER3},
    {PM_POWER4, "POWER4", PFM_PMU_POWER4},
    {PM_MPC7450, "MPC7450", PFM_PMU_NONE},
    {PM_POWER4_II, "POWER4-II", PFM_PMU_POWER4},
    {PM_POWER5, "POWER5", PFM_PMU_POWER5},
    {PM_PowerPC970, "PowerPC 970", PFM_PMU_PPC970},
    {PM_POWER5_II, "POWER5+", PFM_PMU_POWER5p},
    {PM_POWER6, "POWER6", PFM_PMU_POWER6},
    {PM_PowerPC970MP, "PowerPC 970MP", PFM_PMU_PPC970MP},
    {PM_POWERCOMPAT, "POWER compatibility mode", PFM_PMU_NONE},
    {PM_POWER7, "POWER7", PFM_PMU_POWER7},
    {PM_POWER8, "POWER8", PFM_PMU_POWER8},
    {PM_POWER9, "POWER9", PFM_PMU_POWER9},
    {PM_POWER10, "POWER10", PFM_PMU_POWER10},
};

const ProcType *FindProcType(int proctype) {
  for (const ProcType &type : kProcTypes) {
    if (type.proctype == proctype) return &type;
  }
  return nullptr;
}

struct PmuEvents {
  std::string error;  // "" when the PMU has tables
  bool present = false;
  PfmPmu pmu;
  std::vector<PfmEvent> events;
};

// libpfm4's answer per PMU, asked once (listing a POWER PMU's ~1,000 events is not free).
const PmuEvents &EventsOfPmu(int pfm_pmu) {
  static std::mutex mutex;
  static std::map<int, PmuEvents> *answers = new std::map<int, PmuEvents>;  // until exit
  std::lock_guard<std::mutex> lock(mutex);
  auto found = answers->find(pfm_pmu);
  if (found != answers->end()) return found->second;
  PmuEvents &answer = (*answers)[pfm_pmu];
  answer.error = PfmEventsOfPmu(pfm_pmu, &answer.pmu, &answer.present, &answer.events);
  return answer;
}

// The PMU to describe `proctype` with, or Pmapi_InvalidProcType saying why there is none.
Status PmuFor(int proctype, const PmuEvents **answer) {
  const ProcType *type = FindProcType(proctype);
  if (!type) {
    return Status(Pmapi_InvalidProcType,
                  "proctype " + std::to_string(proctype) +
                      " is not a processor type pmapi.h names (PM_CURRENT, 0.." +
                      std::to_string(PM_MAXPROCTYPE) + ")");
  }
  std::string prefix =
      "proctype " + std::to_string(proctype) + " (" + type->name + ") is not this machine, and ";
  if (type->pfm_pmu == PFM_PMU_NONE) {
    return Status(Pmapi_InvalidProcType, prefix + "libpfm4 has no event tables for it");
  }
  const PmuEvents &events = EventsOfPmu(type->pfm_pmu);
  if (!events.error.empty()) return Status(Pmapi_InvalidProcType, prefix + events.error);
  *answer = &events;
  return Status::Ok();
}

std::string Describe(const PfmPmu &pmu) {
  return (pmu.desc.empty() ? pmu.name : pmu.desc) + " (libpfm4 tables; not this machine)";
}

// The strings live as long as the arrays: until exit.
struct Strings {
  std::vector<std::string> short_names, long_names, descriptions;
  std::string proc_name;
};

Strings *MakeStrings(const PmuEvents &answer) {
  Strings *strings = new Strings;
  for (const PfmEvent &event : answer.events) {
    strings->short_names.push_back(event.name);
    strings->long_names.push_back(answer.pmu.name + "::" + event.name);
    strings->descriptions.push_back(event.desc +
                                    " (from libpfm4's tables for this processor; unverified: "
                                    "not this machine)");
  }
  strings->proc_name = Describe(answer.pmu);
  return strings;
}

char *Text(const std::string &text) { return const_cast<char *>(text.c_str()); }

void Fill(pm_events2_t *entry, const Strings &strings, size_t k) {
  entry->event_id = static_cast<int>(k);
  entry->status.w = 0;
  entry->status.b.unverified = 1;
  entry->short_name = Text(strings.short_names[k]);
  entry->long_name = Text(strings.long_names[k]);
  entry->description = Text(strings.descriptions[k]);
  entry->reserved = 0;
}

void Fill(pm_events_t *entry, const Strings &strings, size_t k) {
  entry->event_id = static_cast<int>(k);
  entry->status = 'u';
  entry->threshold = 'n';
  entry->short_name = Text(strings.short_names[k]);
  entry->long_name = Text(strings.long_names[k]);
  entry->description = Text(strings.descriptions[k]);
}

template <typename Lists, typename Entry>
Status ListsForPmu(int pfm_pmu, int status_filter, const Lists **lists, const char **proc_name) {
  const PmuEvents *answer = &EventsOfPmu(pfm_pmu);
  if (!answer->error.empty()) {
    return Status(Pmapi_InvalidProcType,
                  "libpfm4 PMU " + std::to_string(pfm_pmu) + ": " + answer->error);
  }
  static std::mutex mutex;
  static std::map<std::pair<int, int>, std::pair<Lists *, Strings *>> *cache =
      new std::map<std::pair<int, int>, std::pair<Lists *, Strings *>>;  // until exit
  status_filter &= kStatusFilterMask;
  std::lock_guard<std::mutex> lock(mutex);
  auto &entry = (*cache)[std::make_pair(pfm_pmu, status_filter)];
  if (!entry.first) {
    Strings *strings = MakeStrings(*answer);
    // Every entry is unverified: a filter without PM_UNVERIFIED lists none.
    size_t count = (status_filter & PM_UNVERIFIED) ? answer->events.size() : 0;
    Entry *array = new Entry[count ? count : 1]();
    for (size_t k = 0; k < count; ++k) Fill(&array[k], *strings, k);
    Lists *made = new Lists;
    for (int counter = 0; counter < MAX_COUNTERS; ++counter) {
      made->maxevents[counter] = static_cast<int>(count);
      made->lists[counter] = array;
    }
    entry = std::make_pair(made, strings);
  }
  *lists = entry.first;
  *proc_name = entry.second->proc_name.c_str();
  return Status::Ok();
}

template <typename Lists, typename Entry>
Status ListsFor(int proctype, int status_filter, const Lists **lists, const char **proc_name) {
  const PmuEvents *answer = nullptr;
  Status status = PmuFor(proctype, &answer);
  if (!status.ok()) return status;
  const ProcType *type = FindProcType(proctype);
  return ListsForPmu<Lists, Entry>(type->pfm_pmu, status_filter, lists, proc_name);
}

}  // namespace

Status PfmPmuLists2(int pfm_pmu, int status_filter, const EventLists2 **lists,
                    const char **proc_name) {
  return ListsForPmu<EventLists2, pm_events2_t>(pfm_pmu, status_filter, lists, proc_name);
}

bool IsHostProcType(int proctype) {
  if (proctype == PM_CURRENT || proctype == PM_LINUX_HOST) return true;
  const ProcType *type = FindProcType(proctype);
  if (!type || type->pfm_pmu == PFM_PMU_NONE) return false;
  return EventsOfPmu(type->pfm_pmu).present;
}

Status ForeignProcessorLists2(int proctype, int status_filter, const EventLists2 **lists,
                              const char **proc_name) {
  return ListsFor<EventLists2, pm_events2_t>(proctype, status_filter, lists, proc_name);
}

Status ForeignProcessorLists1(int proctype, int status_filter, const EventLists1 **lists,
                              const char **proc_name) {
  return ListsFor<EventLists1, pm_events_t>(proctype, status_filter, lists, proc_name);
}

}  // namespace pmapi
