// SPDX-License-Identifier: MIT
// pm_select_events (include/pmapi_select.h): an event spec -- names, ids, libpfm4 strings,
// tracepoints, a group, or nothing for the default set -- into a program, or the name refused
// and why. Every front end (pmcount, libhpm, libpmapi-mpi) selects through it.
#include "api/export.h"

#pragma GCC visibility push(default)
#include "pmapi_select.h"
#pragma GCC visibility pop

#include <string.h>

#include "api/c_boundary.h"
#include "api/event_lookup.h"
#include "api/event_spec.h"
#include "api/fixed_text.h"
#include "api/suggest.h"
#include "catalog/group_catalog.h"

namespace pmapi {
namespace {

constexpr int kKnownFlags =
    PM_SELECT_GROUP | PM_SELECT_GROUP_NUMBERS | PM_SELECT_BLANKS | PM_SELECT_WIDE_DEFAULT;

// The default sets, as specs. Where cycles count: the group pm_basic, or perf stat's list.
// Elsewhere: the software group, or its members should a groups/ table fail to load.
constexpr const char *kHardwareGroup = "pm_basic";
constexpr const char *kWideDefault =
    "task-clock,context-switches,cpu-migrations,page-faults,PM_CYC,PM_INST_CMPL,PM_BR_CMPL,"
    "PM_BR_MPRED_CMPL";
constexpr const char *kSoftwareGroup = "pm_sw_basic";
constexpr const char *kSoftwareList = "task-clock,context-switches,cpu-migrations,page-faults";

// Records the refusal; the events chosen before it are dropped.
int Refuse(pm_selection_t *out, int refusal, const std::string &name, const std::string &why) {
  memset(out->events, 0, sizeof out->events);
  out->nevents = 0;
  out->group_id = -1;
  out->refusal = refusal;
  CopyFixed(out->refused, name);
  CopyFixed(out->why, why);
  const bool group = refusal == PM_SELECT_UNKNOWN_GROUP || refusal == PM_SELECT_GROUP_NOT_HERE;
  return Report(refusal == PM_SELECT_NO_GROUPS ? Pmapi_BadCatalog
                : group                        ? Pmapi_InvalidGroup
                                               : Pmapi_InvalidEvent,
                why);
}

void Add(const CatalogEvent &entry, const std::string &name, const EventSpec *spec,
         pm_selection_t *out) {
  pm_selected_event_t &event = out->events[out->nevents++];
  event.event_id = entry.id;
  CopyFixed(event.name, name);
  if (spec) {
    event.has_mode = spec->has_mode;
    event.user = spec->user;
    event.kernel = spec->kernel;
  }
  std::string reason;
  event.countable = Countable(entry, &reason);
  CopyFixed(event.not_countable, reason);
}

// The group `key` names: a short name, or with `numbers` its id.
const ResolvedGroup *FindGroup(const std::string &key, bool numbers) {
  const GroupCatalog &groups = GroupCatalog::Get();
  if (!groups.load_status().ok()) return nullptr;
  if (IsNumber(key)) return numbers ? groups.FindId(std::stoi(key)) : nullptr;
  return groups.FindName(key);
}

bool Complete(const ResolvedGroup *group) { return group && group->missing_member.empty(); }

// `spec`: the modifiers written after the group's name, given to every member.
int UseGroup(const ResolvedGroup &group, pm_selection_t *out, const EventSpec *spec = nullptr) {
  if (!group.missing_member.empty()) {
    return Refuse(out, PM_SELECT_GROUP_NOT_HERE, group.record.short_name,
                  "group " + group.record.short_name + " cannot be counted here: its member " +
                      group.missing_member + " is not an event of this machine");
  }
  for (const CatalogEvent *member : group.members) Add(*member, member->short_name, spec, out);
  out->group_id = group.id;
  CopyFixed(out->group_name, group.record.short_name);
  return 0;
}

// A program counts one group on counters 0..n-1 (AIX's is_group) or a list of events, never
// both: the message lists the group's events to name instead.
int GroupInList(const ResolvedGroup &group, const std::string &name, pm_selection_t *out) {
  std::string members;
  for (const CatalogEvent *member : group.members) {
    members += (members.empty() ? "" : ",") + member->short_name;
  }
  const std::string which =
      name == group.record.short_name ? "a group" : "the group " + group.record.short_name;
  return Refuse(out, PM_SELECT_GROUP_IN_LIST, name,
                "'" + name + "' is " + which +
                    ", and a group cannot be combined with other events; name the group alone " +
                    "or list its events (" + members + ")");
}

int UnknownGroup(const std::string &key, pm_selection_t *out) {
  if (IsNumber(key))
    return Refuse(out, PM_SELECT_UNKNOWN_GROUP, key, "no group has the number " + key);
  std::vector<std::string> names;
  for (const ResolvedGroup &group : GroupCatalog::Get().groups()) {
    names.push_back(group.record.short_name);
  }
  const std::vector<std::string> close = ClosestNames(key, names, PM_SELECT_SUGGESTIONS);
  std::string message = "unknown group '" + key + "'";
  for (size_t i = 0; i < close.size(); ++i) {
    message += (i ? ", " : "; did you mean ") + close[i];
    CopyFixed(out->suggestions[out->nsuggestions++], close[i]);
  }
  if (!close.empty()) message += "?";
  return Refuse(out, PM_SELECT_UNKNOWN_GROUP, key, message + " (pmlist -g lists the groups)");
}

// The default set's spec; `note` says why it is the software set, when it is.
const char *DefaultSpec(int flags, std::string *note) {
  const CatalogEvent *cycles = Catalog::Get().FindName("PM_CYC");
  std::string reason;
  if (cycles && Countable(*cycles, &reason)) {
    const bool group =
        !(flags & PM_SELECT_WIDE_DEFAULT) && Complete(FindGroup(kHardwareGroup, false));
    return group ? kHardwareGroup : kWideDefault;
  }
  *note = "no hardware PMU here (a VM without one?)";
  if (!cycles) {
    *note = "PM_CYC is not in the catalog";
  } else if (reason.find("no hardware PMU") == std::string::npos) {
    *note = "PM_CYC is not countable here (" + reason + ")";
  }
  *note += ": counting software events";
  return Complete(FindGroup(kSoftwareGroup, false)) ? kSoftwareGroup : kSoftwareList;
}

// Blanks and line ends become commas; runs of them one, none at either end.
std::string BlanksToCommas(const std::string &spec) {
  std::string out;
  for (char c : spec) {
    const bool separator = c == ',' || c == ' ' || c == '\t' || c == '\n' || c == '\r';
    if (!separator) {
      out += c;
    } else if (!out.empty() && out.back() != ',') {
      out += ',';
    }
  }
  if (!out.empty() && out.back() == ',') out.pop_back();
  return out;
}

int UseList(const std::vector<EventSpec> &specs, int flags, pm_selection_t *out) {
  const bool group_numbers = flags & PM_SELECT_GROUP_NUMBERS;
  if (specs.size() == 1) {
    const std::string &name = specs[0].name;
    if (const ResolvedGroup *group = FindGroup(name, group_numbers)) {
      return UseGroup(*group, out, &specs[0]);
    }
    if (group_numbers && IsNumber(name)) return UnknownGroup(name, out);
  }
  if (specs.size() > MAX_COUNTERS) {
    return Refuse(out, PM_SELECT_TOO_MANY, "",
                  std::to_string(specs.size()) + " events given; one pmapi program counts at " +
                      "most " + std::to_string(MAX_COUNTERS) + " together");
  }
  for (const EventSpec &spec : specs) {
    const CatalogEvent *entry = FindListedEvent(spec.name, !group_numbers);
    std::string refusal;
    if (!entry) {
      if (const ResolvedGroup *group = FindGroup(spec.name, group_numbers)) {
        return GroupInList(*group, spec.text, out);
      }
      entry = AddByEncoding(spec.name, &refusal);
    }
    if (!entry) {
      std::vector<std::string> close;
      const std::string why = UnknownEvent(spec.name, refusal, &close);
      for (const std::string &name : close) CopyFixed(out->suggestions[out->nsuggestions++], name);
      return Refuse(out, PM_SELECT_UNKNOWN_EVENT, spec.text, why);
    }
    for (int e = 0; e < out->nevents; ++e) {
      if (out->events[e].event_id == entry->id) {
        return Refuse(out, PM_SELECT_REPEATED, spec.text,
                      "event '" + spec.text + "' is given twice");
      }
    }
    // An id shows as the event's name (with the spec's own modifiers): "1000" tells nothing.
    const std::string shown =
        IsNumber(spec.name) ? entry->short_name + spec.text.substr(spec.name.size()) : spec.text;
    Add(*entry, shown, &spec, out);
  }
  return 0;
}

int Select(const std::string &given, int flags, pm_selection_t *out) {
  const std::string spec = flags & PM_SELECT_BLANKS ? BlanksToCommas(given) : given;
  if (flags & PM_SELECT_GROUP) {
    if (!GroupCatalog::Get().load_status().ok()) {
      return Refuse(out, PM_SELECT_NO_GROUPS, "", GroupCatalog::Get().load_status().detail());
    }
    const ResolvedGroup *group = FindGroup(spec, true);
    return group ? UseGroup(*group, out) : UnknownGroup(spec, out);
  }
  if (spec.empty()) {
    std::string note;
    const char *chosen = DefaultSpec(flags, &note);
    out->is_default = 1;
    CopyFixed(out->note, note);
    return Select(chosen, 0, out);
  }
  std::vector<EventSpec> specs;
  const std::string error = ParseEventList(spec, &specs);
  if (!error.empty()) return Refuse(out, PM_SELECT_SYNTAX, "", error);
  for (const EventSpec &one : specs) {
    if (one.text.size() >= PM_SELECT_NAME_MAX) {
      return Refuse(out, PM_SELECT_SYNTAX, "",
                    "event '" + one.text.substr(0, 40) + "...' is longer than " +
                        std::to_string(PM_SELECT_NAME_MAX - 1) + " characters");
    }
  }
  return UseList(specs, flags, out);
}

void Clear(pm_selection_t *out) {
  memset(out, 0, sizeof *out);
  out->group_id = -1;
  for (int &event : out->prog.events) event = COUNT_NOTHING;
  out->prog.mode.w = PM_USER | PM_KERNEL | PM_COUNT;
}

}  // namespace
}  // namespace pmapi

extern "C" int pm_select_events(const char *spec, int flags, pm_selection_t *selection) {
  if (!selection) return pmapi::Report(Pmapi_InvalidArg, "the selection is NULL");
  pmapi::Clear(selection);
  const int rc = pmapi::Guarded([&] {
    if (flags & ~pmapi::kKnownFlags) {
      return pmapi::Report(Pmapi_InvalidArg, "flags has bits no PM_SELECT_* names");
    }
    if (!pmapi::LibraryInitialized()) {
      return pmapi::Report(Pmapi_NoInit, "call pm_initialize (or pm_init) before selecting");
    }
    int status = pmapi::Select(spec ? spec : "", flags, selection);
    if (status != 0) return status;
    if (selection->group_id >= 0) {
      selection->prog.events[0] = selection->group_id;
      selection->prog.mode.b.is_group = 1;
    } else {
      for (int e = 0; e < selection->nevents; ++e) {
        selection->prog.events[e] = selection->events[e].event_id;
      }
    }
    return 0;
  });
  if (rc != 0 && selection->why[0] == '\0') {
    pmapi::CopyFixed(selection->why, pmapi::LastDetailFor(rc));
  }
  return rc;
}
