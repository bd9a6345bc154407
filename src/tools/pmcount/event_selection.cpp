#include "event_selection.h"

#include <pmapi.h>
#include <pmapi_catalog.h>

#include <algorithm>
#include <set>

#include "base/last_error.h"
#include "suggest.h"
#include "tracefs_hint.h"

namespace pmcount {
namespace {

using pmapi::Catalog;
using pmapi::CatalogEvent;
using pmapi::EventSource;
using pmapi::EventStatus;
using pmapi::GroupCatalog;
using pmapi::ResolvedGroup;

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

constexpr const char *kHardwareDefault[] = {"task-clock",  "context-switches", "cpu-migrations",
                                            "page-faults", "PM_CYC",           "PM_INST_CMPL",
                                            "PM_BR_CMPL",  "PM_BR_MPRED_CMPL"};
constexpr const char *kSoftwareDefault[] = {"task-clock", "context-switches", "cpu-migrations",
                                            "page-faults"};
constexpr const char *kSoftwareDefaultGroup = "pm_sw_basic";

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

// A catalog id as pmlist prints it ("1000"), which pmapi programs take too.
bool IsId(const std::string &name) {
  return !name.empty() && name.size() < 10 &&
         name.find_first_not_of("0123456789") == std::string::npos;
}

// `refusal` receives, for a name the catalog could not add, libpfm4's complaint when the name
// has the shape of a libpfm4 string with attributes (it may be a misspelt one).
const CatalogEvent *Lookup(const std::string &name, std::string *refusal) {
  const Catalog &catalog = Catalog::Get();
  if (IsId(name)) return catalog.FindId(std::stoi(name));
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
  // A libpfm4 string with umasks or attributes, or a tracepoint made since the catalog was
  // built: the catalog adds it by its encoding, with an id of its own.
  int id = 0;
  const int rc = pm_catalog_add_event(name.c_str(), &id);
  if (rc == 0) return catalog.FindId(id);
  std::string event;
  std::vector<std::string> attributes;
  if (SplitPfmAttributes(name, &event, &attributes) && !attributes.empty()) {
    *refusal = pmapi::LastDetailFor(rc);
  }
  return nullptr;
}

std::string UnknownEvent(const std::string &name, const std::string &refusal) {
  if (IsId(name)) return "no event has the id " + name + " here (pmlist lists the ids)";
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
  std::vector<std::string> names;
  for (size_t index : tools::ClosestIndices(query, keys, keys.size())) {
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

const ResolvedGroup *FindGroup(const std::string &key) {
  const GroupCatalog &groups = GroupCatalog::Get();
  if (!key.empty() && key.find_first_not_of("0123456789") == std::string::npos && key.size() < 9) {
    return groups.FindId(std::stoi(key));
  }
  return groups.FindName(key);
}

std::string UnknownGroup(const std::string &key) {
  std::vector<std::string> names;
  for (const ResolvedGroup &group : GroupCatalog::Get().groups()) {
    names.push_back(group.record.short_name);
  }
  std::vector<std::string> close = tools::ClosestNames(key, names, kMaxSuggestions);
  std::string message = "unknown group '" + key + "'";
  if (!close.empty()) {
    message += "; did you mean ";
    for (size_t i = 0; i < close.size(); ++i) message += (i ? ", " : "") + close[i];
    message += "?";
  }
  return message + " (pmlist -g lists the groups)";
}

void AddEvent(const CatalogEvent *entry, const std::string &name, Selection *selection) {
  SelectedEvent event;
  event.name = name;
  event.entry = entry;
  selection->events.push_back(event);
}

// The group's members, and the group itself if every member can be programmed.
std::string UseGroup(const ResolvedGroup &group, Selection *selection) {
  if (!group.missing_member.empty()) {
    return "group " + group.record.short_name + " cannot be counted here: its member " +
           group.missing_member + " is not an event of this machine";
  }
  for (const CatalogEvent *member : group.members) AddEvent(member, member->short_name, selection);
  selection->group = &group;
  return "";
}

// The metrics of the chosen group; or, for a list of events, of every group whose members
// are all counted (so task-clock with its companions brings CPUs_utilized, say).
void AddMetrics(Selection *selection) {
  std::vector<const ResolvedGroup *> sources;
  if (selection->group) {
    sources.push_back(selection->group);
  } else {
    for (const ResolvedGroup &group : GroupCatalog::Get().groups()) sources.push_back(&group);
  }
  std::set<std::string> seen;
  for (const ResolvedGroup *group : sources) {
    if (!group->missing_member.empty() || group->record.metrics.empty()) continue;
    std::vector<size_t> indexes;
    for (const CatalogEvent *member : group->members) {
      size_t index = 0;
      while (index < selection->events.size() && selection->events[index].entry != member) ++index;
      if (index == selection->events.size()) break;
      indexes.push_back(index);
    }
    if (indexes.size() != group->members.size()) continue;
    for (const pmapi::GroupMetric &metric : group->record.metrics) {
      if (!seen.insert(metric.name).second) continue;  // the first group to define it wins
      MetricDef def;
      def.name = metric.name;
      def.group = group->record.short_name;
      def.formula = &metric.compiled;
      def.events = indexes;
      selection->metrics.push_back(def);
    }
  }
}

std::string DefaultEvents(Selection *selection) {
  const Catalog &catalog = Catalog::Get();
  const CatalogEvent *cycles = catalog.FindName("PM_CYC");
  std::string reason;
  if (cycles && Countable(*cycles, &reason)) {
    for (const char *name : kHardwareDefault) {
      if (const CatalogEvent *entry = catalog.FindName(name)) AddEvent(entry, name, selection);
    }
    return "";
  }
  std::string why = "no hardware PMU here (a VM without one?)";
  if (!cycles) {
    why = "PM_CYC is not in the catalog";
  } else if (reason.find("no hardware PMU") == std::string::npos) {
    why = "PM_CYC is not countable here (" + reason + ")";
  }
  selection->notes.push_back(why + ": counting software events; -e or -g choose others");
  const ResolvedGroup *group = GroupCatalog::Get().FindName(kSoftwareDefaultGroup);
  if (group && group->missing_member.empty()) return UseGroup(*group, selection);
  for (const char *name : kSoftwareDefault) {
    if (const CatalogEvent *entry = catalog.FindName(name)) AddEvent(entry, name, selection);
  }
  return "";
}

}  // namespace

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

std::string SelectEvents(const Options &options, const std::vector<EventSpec> &specs,
                         Selection *selection) {
  Selection out;
  std::string error;
  if (!options.group.empty()) {
    if (!GroupCatalog::Get().load_status().ok()) return GroupCatalog::Get().load_status().detail();
    const ResolvedGroup *group = FindGroup(options.group);
    if (!group) return UnknownGroup(options.group);
    error = UseGroup(*group, &out);
  } else if (specs.empty()) {
    error = DefaultEvents(&out);
  } else {
    for (const EventSpec &spec : specs) {
      std::string refusal;
      const CatalogEvent *entry = Lookup(spec.name, &refusal);
      if (!entry) return UnknownEvent(spec.name, refusal);
      for (const SelectedEvent &earlier : out.events) {
        if (earlier.entry == entry) return "event '" + spec.text + "' is given twice";
      }
      SelectedEvent event;
      event.name = spec.text;
      // An id prints as the event's name (with the spec's own modifiers): "1000" tells nothing.
      if (IsId(spec.name)) event.name = entry->short_name + spec.text.substr(spec.name.size());
      event.entry = entry;
      event.has_mode = spec.has_mode;
      event.user = spec.user;
      event.kernel = spec.kernel;
      out.events.push_back(event);
    }
  }
  if (!error.empty()) return error;
  if (out.events.size() > MAX_COUNTERS) {
    return std::to_string(out.events.size()) + " events given; one pmapi program counts at most " +
           std::to_string(MAX_COUNTERS) + " together";
  }
  if (GroupCatalog::Get().load_status().ok()) AddMetrics(&out);
  *selection = std::move(out);
  return "";
}

}  // namespace pmcount
