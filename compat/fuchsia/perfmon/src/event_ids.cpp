#include "event_ids.h"

#include <string.h>

#include <mutex>
#include <vector>

#include "base/kernel.h"
#include "catalog/pfm_bridge.h"
#include "catalog/tracepoint_source.h"

namespace perfmon {
namespace {

struct NamedEvent {
  uint16_t event;        // the low 11 bits of the id
  const char *name;      // as cpuperf spells it
  const char *pfm_name;  // what libpfm4 encodes (fixed, arch) or nullptr
  uint64_t config;       // PERF_COUNT_SW_* (software)
};

// Intel's fixed counters, numbered from 1 as in Fuchsia; libpfm4's perf PMU names the same
// counts generically.
constexpr NamedEvent kFixed[] = {
    {1, "instructions_retired", "perf::PERF_COUNT_HW_INSTRUCTIONS", 0},
    {2, "unhalted_core_cycles", "perf::PERF_COUNT_HW_CPU_CYCLES", 0},
    {3, "unhalted_reference_cycles", "perf::PERF_COUNT_HW_REF_CPU_CYCLES", 0},
};

// The architectural events, libpfm4's names for the same event/umask pairs.
constexpr NamedEvent kArch[] = {
    {0, "unhalted_core_cycles", "UNHALTED_CORE_CYCLES", 0},
    {1, "instructions_retired", "INSTRUCTION_RETIRED", 0},
    {2, "unhalted_reference_cycles", "UNHALTED_REFERENCE_CYCLES", 0},
    {3, "llc_references", "LLC_REFERENCES", 0},
    {4, "llc_misses", "LLC_MISSES", 0},
    {5, "branch_instructions_retired", "BRANCH_INSTRUCTIONS_RETIRED", 0},
    {6, "branch_misses_retired", "MISPREDICTED_BRANCH_RETIRED", 0},
};

// Linux software events: PERF_COUNT_SW_* + 1, so that none is event 0.
constexpr NamedEvent kSoftware[] = {
    {1, "cpu-clock", nullptr, PERF_COUNT_SW_CPU_CLOCK},
    {2, "task-clock", nullptr, PERF_COUNT_SW_TASK_CLOCK},
    {3, "page-faults", nullptr, PERF_COUNT_SW_PAGE_FAULTS},
    {4, "context-switches", nullptr, PERF_COUNT_SW_CONTEXT_SWITCHES},
    {5, "cpu-migrations", nullptr, PERF_COUNT_SW_CPU_MIGRATIONS},
    {6, "minor-faults", nullptr, PERF_COUNT_SW_PAGE_FAULTS_MIN},
    {7, "major-faults", nullptr, PERF_COUNT_SW_PAGE_FAULTS_MAJ},
    {8, "alignment-faults", nullptr, PERF_COUNT_SW_ALIGNMENT_FAULTS},
    {9, "emulation-faults", nullptr, PERF_COUNT_SW_EMULATION_FAULTS},
};

template <size_t N>
const NamedEvent *ByNumber(const NamedEvent (&table)[N], uint16_t event) {
  for (const NamedEvent &entry : table) {
    if (entry.event == event) return &entry;
  }
  return nullptr;
}

template <size_t N>
const NamedEvent *ByName(const NamedEvent (&table)[N], const std::string &name) {
  for (const NamedEvent &entry : table) {
    if (name == entry.name) return &entry;
  }
  return nullptr;
}

// The model group: the core PMU's events as libpfm4 lists them, read once.
struct ModelEvents {
  std::string pmu;
  std::vector<std::string> names;  // index = event number
};

const ModelEvents &Model() {
  static const ModelEvents *model = [] {
    auto *result = new ModelEvents;
    if (!pmapi::PfmInitialize().empty()) return result;
    std::vector<pmapi::PfmPmu> pmus;
    std::vector<pmapi::PfmEvent> events;
    pmapi::PfmEnumerate(&pmus, &events);
    int core = -1;
    for (size_t i = 0; i < pmus.size(); ++i) {
      if (pmus[i].is_core) {
        core = static_cast<int>(i);
        break;
      }
    }
    if (core < 0) return result;
    result->pmu = pmus[core].name;
    for (const pmapi::PfmEvent &event : events) {
      if (event.pmu_index == core && result->names.size() <= PERFMON_MAX_EVENT) {
        result->names.push_back(event.name);
      }
    }
    return result;
  }();
  return *model;
}

std::string TracefsRoot() {
  for (const char *root : pmapi::kTracefsRoots) {
    if (pmapi::CurrentKernel().Access(std::string(root) + "/events", 0) == 0) return root;
  }
  return "";
}

zx_status_t EncodePfm(const std::string &pfm_name, perf_event_attr *attr, std::string *why) {
  std::string error = pmapi::PfmInitialize();
  pmapi::PfmEncoding encoding;
  if (error.empty()) error = pmapi::PfmEncode(pfm_name, &encoding);
  if (!error.empty()) {
    *why = "libpfm4 cannot encode " + pfm_name + ": " + error;
    return ZX_ERR_NOT_SUPPORTED;
  }
  attr->type = encoding.type;
  attr->config = encoding.config;
  attr->config1 = encoding.config1;
  attr->config2 = encoding.config2;
  return ZX_OK;
}

const char *const kGroupNames[] = {"reserved", "arch",  "fixed",      "model",
                                   "misc",     "linux", "tracepoint", "tracepoint"};

}  // namespace

EventKind KindOf(perfmon_event_id_t id) {
  uint16_t event = PERFMON_EVENT_ID_EVENT(id);
  switch (PERFMON_EVENT_ID_GROUP(id)) {
    case PERFMON_GROUP_FIXED:
      return ByNumber(kFixed, event) ? EventKind::kFixed : EventKind::kUnknown;
    case PERFMON_GROUP_ARCH:
      return ByNumber(kArch, event) ? EventKind::kProgrammable : EventKind::kUnknown;
    case PERFMON_GROUP_MODEL:
      return event < Model().names.size() ? EventKind::kProgrammable : EventKind::kUnknown;
    case PERFMON_GROUP_LINUX:
      return ByNumber(kSoftware, event) ? EventKind::kSoftware : EventKind::kUnknown;
    case PERFMON_GROUP_TRACEPOINT:
    case PERFMON_GROUP_TRACEPOINT_HI:
      return id == PERFMON_MAKE_EVENT_ID(PERFMON_GROUP_TRACEPOINT, 0) ? EventKind::kUnknown
                                                                      : EventKind::kTracepoint;
    default:  // misc: this machine has none of the Skylake package registers Fuchsia reads
      return EventKind::kUnknown;
  }
}

zx_status_t EncodeEvent(perfmon_event_id_t id, perf_event_attr *attr, std::string *why) {
  uint16_t event = PERFMON_EVENT_ID_EVENT(id);
  switch (KindOf(id)) {
    case EventKind::kFixed:
      return EncodePfm(ByNumber(kFixed, event)->pfm_name, attr, why);
    case EventKind::kProgrammable:
      if (PERFMON_EVENT_ID_GROUP(id) == PERFMON_GROUP_ARCH) {
        return EncodePfm(ByNumber(kArch, event)->pfm_name, attr, why);
      }
      return EncodePfm(Model().pmu + "::" + Model().names[event], attr, why);
    case EventKind::kSoftware:
      attr->type = PERF_TYPE_SOFTWARE;
      attr->config = ByNumber(kSoftware, event)->config;
      return ZX_OK;
    case EventKind::kTracepoint:
      attr->type = PERF_TYPE_TRACEPOINT;
      attr->config = (PERFMON_EVENT_ID_GROUP(id) - PERFMON_GROUP_TRACEPOINT) * 2048u + event;
      return ZX_OK;
    default:
      *why = "no event has id " + std::to_string(id) + " here";
      return ZX_ERR_NOT_FOUND;
  }
}

zx_status_t LookupEvent(const std::string &group, const std::string &name, perfmon_event_id_t *id) {
  const NamedEvent *entry = nullptr;
  int group_number = 0;
  if (group == "fixed") {
    entry = ByName(kFixed, name);
    group_number = PERFMON_GROUP_FIXED;
  } else if (group == "arch") {
    entry = ByName(kArch, name);
    group_number = PERFMON_GROUP_ARCH;
  } else if (group == "linux") {
    entry = ByName(kSoftware, name);
    group_number = PERFMON_GROUP_LINUX;
  } else if (group == "model") {
    const std::vector<std::string> &names = Model().names;
    for (size_t i = 0; i < names.size(); ++i) {
      if (strcasecmp(names[i].c_str(), name.c_str()) == 0) {
        *id = PERFMON_MAKE_EVENT_ID(PERFMON_GROUP_MODEL, i);
        return ZX_OK;
      }
    }
    return ZX_ERR_NOT_FOUND;
  } else if (group == "misc") {
    return ZX_ERR_NOT_FOUND;
  } else if (group == "tracepoint") {
    perf_event_attr attr{};
    std::string root = TracefsRoot();
    if (root.empty() || !pmapi::EncodeTracepoint(root, name, &attr).ok()) return ZX_ERR_NOT_FOUND;
    if (attr.config == 0 || attr.config >= 4096) return ZX_ERR_NOT_SUPPORTED;
    *id = PERFMON_MAKE_EVENT_ID(PERFMON_GROUP_TRACEPOINT + attr.config / 2048, attr.config % 2048);
    return ZX_OK;
  } else {
    return ZX_ERR_INVALID_ARGS;
  }
  if (!entry) return ZX_ERR_NOT_FOUND;
  *id = PERFMON_MAKE_EVENT_ID(group_number, entry->event);
  return ZX_OK;
}

zx_status_t EventName(perfmon_event_id_t id, std::string *name) {
  uint16_t event = PERFMON_EVENT_ID_EVENT(id);
  unsigned group = PERFMON_EVENT_ID_GROUP(id);
  const NamedEvent *entry = nullptr;
  switch (KindOf(id)) {
    case EventKind::kFixed:
      entry = ByNumber(kFixed, event);
      break;
    case EventKind::kProgrammable:
      if (group == PERFMON_GROUP_MODEL) {
        *name = "model:" + Model().names[event];
        return ZX_OK;
      }
      entry = ByNumber(kArch, event);
      break;
    case EventKind::kSoftware:
      entry = ByNumber(kSoftware, event);
      break;
    case EventKind::kTracepoint: {
      // Tracefs names ids only one way (name -> id): search, once per process.
      static std::mutex mutex;
      static std::vector<std::string> *by_id = nullptr;
      std::lock_guard<std::mutex> lock(mutex);
      if (!by_id) {
        by_id = new std::vector<std::string>(4096);
        pmapi::TracepointList list = pmapi::ListTracepoints();
        for (const std::string &tracepoint : list.names) {
          perf_event_attr attr{};
          if (pmapi::EncodeTracepoint(list.tracefs_root, tracepoint, &attr).ok() &&
              attr.config < by_id->size()) {
            (*by_id)[attr.config] = tracepoint;
          }
        }
      }
      const std::string &found = (*by_id)[(group - PERFMON_GROUP_TRACEPOINT) * 2048u + event];
      if (found.empty()) break;
      *name = "tracepoint:" + found;
      return ZX_OK;
    }
    default:
      break;
  }
  if (!entry) {
    char text[16];
    snprintf(text, sizeof text, "0x%04x", id);
    *name = text;
    return ZX_ERR_NOT_FOUND;
  }
  *name = std::string(kGroupNames[group]) + ":" + entry->name;
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
