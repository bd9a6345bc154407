// SPDX-License-Identifier: MIT
#include "event_ids.h"

#include <pmapi_select.h>
#include <string.h>

#include <memory>
#include <vector>

#include "catalog/catalog.h"

namespace perfmon {
namespace {

using pmapi::Catalog;
using pmapi::CatalogEvent;

// Intel's fixed counters (numbered from 1, as in Fuchsia) and architectural events (in Intel's
// order), each with perf's generic event for the same count: the kernel's generic events are
// these event/umask pairs on Intel and their nearest on every other PMU, ARM's too.
constexpr struct {
  perfmon_event_id_t id;
  const char *name;       // Fuchsia's, as cpuperf spells it
  const char *perf_name;  // what the library knows the Linux event by
} kHardware[] = {
    {0x1001, "instructions_retired", "instructions"},
    {0x1002, "unhalted_core_cycles", "cycles"},
    {0x1003, "unhalted_reference_cycles", "ref-cycles"},
    {0x0800, "unhalted_core_cycles", "cycles"},
    {0x0801, "instructions_retired", "instructions"},
    {0x0802, "unhalted_reference_cycles", "ref-cycles"},
    {0x0803, "llc_references", "cache-references"},
    {0x0804, "llc_misses", "cache-misses"},
    {0x0805, "branch_instructions_retired", "branch-instructions"},
    {0x0806, "branch_misses_retired", "branch-misses"},
};

struct Named {
  std::string name;          // in perfmon's "group:name"; "" for a hole in the numbering
  std::string library_name;  // the spec pm_select_events takes for its Linux event
};

void Put(std::vector<Named> *group, size_t event, Named named) {
  if (group->size() <= event) group->resize(event + 1);
  if ((*group)[event].name.empty()) (*group)[event] = std::move(named);
}

// The named groups' events, index = event number, read once: fixed and arch from kHardware;
// model, the core PMU's events the catalog has from libpfm4 ("icl::INST_RETIRED", in libpfm4's
// order; the catalog names that PMU by its description, proc_name, which ends their long
// names); linux, the catalog's kernel software events under perf's names
// (events/software.tbl), event n being PERF_COUNT_SW_* + 1 so that none is event 0.
const std::vector<Named> &GroupEvents(unsigned group) {
  static const std::vector<Named> *groups = [] {
    auto *result = new std::vector<Named>[PERFMON_GROUP_LINUX + 1];
    for (const auto &event : kHardware) {
      Put(&result[PERFMON_EVENT_ID_GROUP(event.id)], PERFMON_EVENT_ID_EVENT(event.id),
          {event.name, event.perf_name});
    }
    const Catalog &catalog = Catalog::Get();
    const std::string core = " (" + catalog.proc_name() + ")";
    for (const CatalogEvent &event : catalog.events()) {
      const std::string &long_name = event.long_name;
      perf_event_attr attr{};
      if (event.source == pmapi::EventSource::kPfm && long_name.size() > core.size() &&
          long_name.compare(long_name.size() - core.size(), core.size(), core) == 0) {
        std::vector<Named> &model = result[PERFMON_GROUP_MODEL];
        const std::string &name = event.short_name;
        // POWER's events are listed under their bare names already (PM_RUN_CYC).
        const size_t sep = name.find("::");
        if (model.size() <= PERFMON_MAX_EVENT)
          model.push_back({sep == std::string::npos ? name : name.substr(sep + 2), name});
      } else if (event.source == pmapi::EventSource::kTable && catalog.Encode(event, &attr).ok() &&
                 attr.type == PERF_TYPE_SOFTWARE && attr.config < PERFMON_MAX_EVENT) {
        Put(&result[PERFMON_GROUP_LINUX], attr.config + 1, {event.short_name, event.short_name});
      }
    }
    return result;
  }();
  static const std::vector<Named> kNone;
  return group <= PERFMON_GROUP_LINUX ? groups[group] : kNone;
}

const Named *Find(perfmon_event_id_t id) {
  const std::vector<Named> &events = GroupEvents(PERFMON_EVENT_ID_GROUP(id));
  const size_t event = PERFMON_EVENT_ID_EVENT(id);
  return event < events.size() && !events[event].name.empty() ? &events[event] : nullptr;
}

// The catalog's event that `name` names, found by the selection call every front end uses:
// exactly one event, without modifiers ("cycles:u" is not a name here), never a group.
const CatalogEvent *Select(const std::string &name, std::string *why) {
  // pm_select_events wants the library initialized. libperfmon's copy of it is its own, and
  // needs only the catalog: not pm_initialize's event lists, nor its code.
  static const bool initialized = [] {
    if (!Catalog::Get().load_status().ok()) return false;
    pmapi::RecordInitialization(pmapi::kStatusFilterMask);
    return true;
  }();
  std::unique_ptr<pm_selection_t> selection(new pm_selection_t);
  if (!initialized) {
    *why = "the event catalog did not load: " + Catalog::Get().load_status().detail();
  } else if (name.find_first_not_of("0123456789") == std::string::npos) {
    *why = "'" + name + "' is no event's name";  // "" is the default set, "18" a catalog id
  } else if (pm_select_events(name.c_str(), 0, selection.get()) != 0) {
    *why = selection->why;
  } else if (selection->nevents != 1 || selection->group_id >= 0 || selection->events[0].has_mode) {
    *why = "'" + name + "' is not one event";
  } else {
    return Catalog::Get().FindId(selection->events[0].event_id);
  }
  return nullptr;
}

// The tracepoint with tracefs id `config` among those the catalog lists; "" if none. Tracefs
// names ids only one way (name -> id): the catalog's tracepoints are encoded once per process.
std::string TracepointName(uint64_t config) {
  static const std::vector<std::string> *by_id = [] {
    auto *result = new std::vector<std::string>(4096);
    const Catalog &catalog = Catalog::Get();
    for (const CatalogEvent &event : catalog.events()) {
      perf_event_attr attr{};
      if (event.source == pmapi::EventSource::kTracepoint && catalog.Encode(event, &attr).ok() &&
          attr.config < result->size()) {
        (*result)[attr.config] = event.short_name;
      }
    }
    return result;
  }();
  return config < by_id->size() ? (*by_id)[config] : "";
}

uint64_t TracepointConfig(perfmon_event_id_t id) {
  return (PERFMON_EVENT_ID_GROUP(id) - PERFMON_GROUP_TRACEPOINT) * 2048u +
         PERFMON_EVENT_ID_EVENT(id);
}

const char *const kGroupNames[] = {"reserved", "arch",  "fixed",      "model",
                                   "misc",     "linux", "tracepoint", "tracepoint"};

}  // namespace

EventKind KindOf(perfmon_event_id_t id) {
  switch (PERFMON_EVENT_ID_GROUP(id)) {
    case PERFMON_GROUP_FIXED:
      return Find(id) ? EventKind::kFixed : EventKind::kUnknown;
    case PERFMON_GROUP_ARCH:
    case PERFMON_GROUP_MODEL:
      return Find(id) ? EventKind::kProgrammable : EventKind::kUnknown;
    case PERFMON_GROUP_LINUX:
      return Find(id) ? EventKind::kSoftware : EventKind::kUnknown;
    case PERFMON_GROUP_TRACEPOINT:
    case PERFMON_GROUP_TRACEPOINT_HI:
      return id == PERFMON_MAKE_EVENT_ID(PERFMON_GROUP_TRACEPOINT, 0) ? EventKind::kUnknown
                                                                      : EventKind::kTracepoint;
    default:  // misc: this machine has none of the Skylake package registers Fuchsia reads
      return EventKind::kUnknown;
  }
}

zx_status_t EncodeEvent(perfmon_event_id_t id, perf_event_attr *attr, std::string *why) {
  if (KindOf(id) == EventKind::kTracepoint) {
    // The id is the tracefs id, which the catalog's encoding of a tracepoint holds; one made
    // since the catalog was built counts too (the kernel judges it at Start).
    attr->type = PERF_TYPE_TRACEPOINT;
    attr->config = TracepointConfig(id);
    return ZX_OK;
  }
  const Named *named = Find(id);
  if (!named) {
    *why = "no event has id " + std::to_string(id) + " here";
    return ZX_ERR_NOT_FOUND;
  }
  const CatalogEvent *event = Select(named->library_name, why);
  if (!event) return ZX_ERR_NOT_SUPPORTED;
  pmapi::Status status = Catalog::Get().Encode(*event, attr);
  if (status.ok()) return ZX_OK;
  *why = status.detail();
  return ZX_ERR_NOT_SUPPORTED;
}

zx_status_t LookupEvent(const std::string &group, const std::string &name, perfmon_event_id_t *id) {
  if (group == "tracepoint") {
    std::string why;
    const CatalogEvent *event = Select(name, &why);
    perf_event_attr attr{};
    if (!event || !Catalog::Get().Encode(*event, &attr).ok() || attr.type != PERF_TYPE_TRACEPOINT) {
      return ZX_ERR_NOT_FOUND;
    }
    if (attr.config == 0 || attr.config >= 4096) return ZX_ERR_NOT_SUPPORTED;
    *id = PERFMON_MAKE_EVENT_ID(PERFMON_GROUP_TRACEPOINT + attr.config / 2048, attr.config % 2048);
    return ZX_OK;
  }
  for (unsigned g = PERFMON_GROUP_ARCH; g <= PERFMON_GROUP_LINUX; ++g) {
    if (group != kGroupNames[g]) continue;
    const std::vector<Named> &events = GroupEvents(g);
    for (size_t event = 0; event < events.size(); ++event) {
      if (!events[event].name.empty() &&
          strcasecmp(events[event].name.c_str(), name.c_str()) == 0) {
        *id = PERFMON_MAKE_EVENT_ID(g, event);
        return ZX_OK;
      }
    }
    return ZX_ERR_NOT_FOUND;
  }
  return ZX_ERR_INVALID_ARGS;
}

zx_status_t EventName(perfmon_event_id_t id, std::string *name) {
  const Named *named = Find(id);
  std::string found = named ? named->name : "";
  if (KindOf(id) == EventKind::kTracepoint) found = TracepointName(TracepointConfig(id));
  if (found.empty()) {
    char text[16];
    snprintf(text, sizeof text, "0x%04x", id);
    *name = text;
    return ZX_ERR_NOT_FOUND;
  }
  *name = std::string(kGroupNames[PERFMON_EVENT_ID_GROUP(id)]) + ":" + found;
  return ZX_OK;
}

}  // namespace perfmon

extern "C" zx_status_t perfmon_lookup_event(const char *group_name, const char *event_name,
                                            perfmon_event_id_t *id) {
  if (!event_name || !id) return ZX_ERR_INVALID_ARGS;
  try {
    std::string group, name = event_name;
    if (group_name) {
      group = group_name;
    } else {
      size_t colon = name.find(':');
      if (colon == std::string::npos) return ZX_ERR_INVALID_ARGS;
      group = name.substr(0, colon);
      name = name.substr(colon + 1);
    }
    return perfmon::LookupEvent(group, name, id);
  } catch (...) {
    return ZX_ERR_NO_MEMORY;
  }
}

extern "C" zx_status_t perfmon_event_name(perfmon_event_id_t id, char *buf, size_t size) {
  if (!buf || size == 0) return ZX_ERR_INVALID_ARGS;
  try {
    std::string name;
    zx_status_t status = perfmon::EventName(id, &name);
    snprintf(buf, size, "%s", name.c_str());
    return status;
  } catch (...) {
    buf[0] = '\0';
    return ZX_ERR_NO_MEMORY;
  }
}
