// SPDX-License-Identifier: MIT
#include "api/event_lookup.h"

#include <algorithm>

#include "api/event_search.h"
#include "api/event_spec.h"
#include "api/suggest.h"
#include "api/tracefs_hint.h"

namespace pmapi {
namespace {

// perf's generic hardware event names, for users coming from perf stat: they count the same
// kernel events as the catalog's AIX mnemonics.
struct Alias {
  const char *perf_name;
  const char *catalog_name;
};
constexpr Alias kPerfAliases[] = {
    {"cycles", "PM_CYC"},
    {"cpu-cycles", "PM_CYC"},
    {"instructions", "PM_INST_CMPL"},
    {"ref-cycles", "PM_REF_CYC"},
    {"bus-cycles", "PM_BUS_CYC"},
    {"branches", "PM_BR_CMPL"},
    {"branch-instructions", "PM_BR_CMPL"},
    {"branch-misses", "PM_BR_MPRED_CMPL"},
    {"cache-references", "PM_CACHE_REF"},
    {"cache-misses", "PM_CACHE_MISS"},
};

constexpr size_t kMaxSuggestions = 4;

// The PMUs libpfm4 detected, as the catalog names them ("perf", "amd64_fam19h_zen3"), in
// catalog order: libpfm4 resolves a bare event name by trying them in this order.
std::vector<std::string> PfmPmus() {
  std::vector<std::string> pmus;
  for (const CatalogEvent &event : Catalog::Get().events()) {
    if (event.source != EventSource::kPfm && event.source != EventSource::kSoftware) continue;
    const size_t sep = event.short_name.find("::");
    if (sep == std::string::npos) continue;
    const std::string pmu = event.short_name.substr(0, sep);
    if (std::find(pmus.begin(), pmus.end(), pmu) == pmus.end()) pmus.push_back(pmu);
  }
  // The model-specific PMU first: "RETIRED_OPS" means the processor's, not a pseudo PMU's.
  std::stable_partition(pmus.begin(), pmus.end(), [](const std::string &p) { return p != "perf"; });
  return pmus;
}

}  // namespace

bool IsNumber(const std::string &name) {
  return !name.empty() && name.size() < 10 &&
         name.find_first_not_of("0123456789") == std::string::npos;
}

const CatalogEvent *FindListedEvent(const std::string &name, bool numbers_are_ids) {
  const Catalog &catalog = Catalog::Get();
  if (IsNumber(name)) return numbers_are_ids ? catalog.FindId(std::stoi(name)) : nullptr;
  for (const Alias &alias : kPerfAliases) {
    if (name == alias.perf_name) return catalog.FindName(alias.catalog_name);
  }
  if (const CatalogEvent *event = catalog.FindName(CatalogSpelling(name))) return event;
  // A bare libpfm4 name ("RETIRED_INSTRUCTIONS"): try each PMU, as libpfm4 would.
  if (name.find("::") == std::string::npos && name.find_first_of(":/") == std::string::npos) {
    for (const std::string &pmu : PfmPmus()) {
      if (const CatalogEvent *event = catalog.FindName(pmu + "::" + name)) return event;
    }
  }
  return nullptr;
}

const CatalogEvent *AddByEncoding(const std::string &name, std::string *refusal) {
  if (IsNumber(name)) return nullptr;
  int id = 0;
  const Status status = Catalog::Get().Add(name, &id);
  if (status.ok()) return Catalog::Get().FindId(id);
  std::string event;
  std::vector<std::string> attributes;
  if (SplitPfmAttributes(name, &event, &attributes) && !attributes.empty()) {
    *refusal = status.detail_text();
  }
  return nullptr;
}

std::string UnknownEvent(const std::string &name, const std::string &refusal,
                         std::vector<std::string> *suggestions) {
  if (IsNumber(name)) return "no event has the id " + name + " here (pmlist lists the ids)";
  // A pattern where a name belongs: a program names its events one by one.
  if (HasWildcard(name)) {
    return "unknown event '" + name + "': a pmapi program takes event names, not patterns; " +
           "pmcount -e expands them, and pmlist '" + name + "' lists the events one matches";
  }
  // A tracepoint this user cannot see: the names close to it are beside the point.
  if (LooksLikeTracepoint(name)) {
    const std::string why = TracefsUnreadable();
    if (!why.empty()) return "unknown event '" + name + "': " + why;
  }
  // Compare against every name, and against libpfm4 names without their PMU prefix, so that
  // "RETIRED_INSTRUCTION" finds "amd64_fam19h_zen3::RETIRED_INSTRUCTIONS".
  std::vector<std::string> keys, shown;
  for (const Alias &alias : kPerfAliases) {
    keys.push_back(alias.perf_name);
    shown.push_back(alias.perf_name);
  }
  for (const CatalogEvent *event : Catalog::Get().InIdOrder()) {
    keys.push_back(event->short_name);
    shown.push_back(event->short_name);
    const size_t sep = event->short_name.find("::");
    if (sep != std::string::npos) {
      keys.push_back(event->short_name.substr(sep + 2));
      shown.push_back(event->short_name);
    }
  }
  std::string query = name;
  std::string event_part;
  std::vector<std::string> attributes;
  if (!refusal.empty() && SplitPfmAttributes(name, &event_part, &attributes)) query = event_part;
  std::vector<std::string> &names = *suggestions;
  for (size_t index : ClosestIndices(query, keys, keys.size())) {
    if (std::find(names.begin(), names.end(), shown[index]) == names.end()) {
      names.push_back(shown[index]);
    }
    if (names.size() == kMaxSuggestions) break;
  }
  std::string message = refusal.empty() ? "unknown event '" + name + "'" : refusal;
  if (names.empty()) return message + "; no event here has a similar name (pmlist lists them all)";
  message += "; did you mean ";
  for (size_t i = 0; i < names.size(); ++i) {
    message += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
  }
  return message + "? (pmlist lists them all)";
}

bool Countable(const CatalogEvent &entry, std::string *reason) {
  if (entry.status != EventStatus::kUnverified) return true;
  // The catalog ends an unverified event's description with "(not countable here: WHY)".
  const std::string marker = "(not countable here: ";
  const size_t at = entry.description.rfind(marker);
  if (at != std::string::npos) {
    std::string why = entry.description.substr(at + marker.size());
    if (!why.empty() && why.back() == ')') why.pop_back();
    *reason = why;
  } else {
    *reason = "the kernel does not count it here";
  }
  return false;
}

}  // namespace pmapi
