// SPDX-License-Identifier: MIT
// Three sources that libpfm4 encodes: the curated tables (each record's first libpfm4 string
// that encodes here, or the kernel software event number it names), every event of the PMUs
// libpfm4 detects, and the kernel software events its "perf" PMU names. Statuses come from
// class probes.
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <set>

#include "catalog/event_sources.h"
#include "pmapi.h"

namespace pmapi {
namespace {

// Encoding costs ~5-15 us per event, so only what a probe needs is encoded: one event per
// model-specific PMU (trying at most this many), and the table records. The generic "perf"
// PMU is classified by event name instead (PerfPmuType).
constexpr int kEncodeAttemptsPerPmu = 16;

bool StartsWith(const std::string &text, const char *prefix) {
  return text.compare(0, strlen(prefix), prefix) == 0;
}

// The kernel event kind of an event of libpfm4's "perf" PMU, from its name or the name it is
// an alias of (CYCLES is PERF_COUNT_HW_CPU_CYCLES).
uint32_t PerfPmuType(const PfmEvent &event) {
  const std::string &name = event.equiv.empty() ? event.name : event.equiv;
  if (StartsWith(name, "PERF_COUNT_HW_CACHE_")) return PERF_TYPE_HW_CACHE;
  if (StartsWith(name, "PERF_COUNT_HW_")) return PERF_TYPE_HARDWARE;
  if (StartsWith(name, "PERF_COUNT_SW_")) return PERF_TYPE_SOFTWARE;
  return PERF_TYPE_MAX;  // unknown: encode it to find out
}

std::string CannotEncodeNote(const std::string &error) {
  return "(not countable here: libpfm4 cannot encode it on this machine: " + error + ")";
}

void SetStatus(const ProbeResult &result, bool approximate, CatalogEvent *event) {
  event->status = StatusFromProbe(result, approximate);
  AppendNote(&event->description, ProbeNote(result));
}

void SetCannotEncode(const std::string &error, CatalogEvent *event) {
  event->status = EventStatus::kUnverified;
  AppendNote(&event->description, CannotEncodeNote(error));
}

Status EncodePfmEvent(const std::string &name, perf_event_attr *attr) {
  PfmEncoding encoding;
  std::string error = PfmEncode(name, &encoding);
  if (!error.empty()) {
    return Status(Pmapi_InvalidEvent, "libpfm4 cannot encode event " + name + ": " + error);
  }
  attr->type = encoding.type;
  attr->config = encoding.config;
  attr->config1 = encoding.config1;
  attr->config2 = encoding.config2;
  return Status::Ok();
}

Status EncodeWithPfm(const std::string & /*tracefs_root*/, const std::string &name,
                     perf_event_attr *attr) {
  return EncodePfmEvent(name, attr);
}

// A table record's alternative: a libpfm4 string, or "software:N", the kernel's software event
// N, for the ones libpfm4 does not name (alignment-faults, emulation-faults, dummy, bpf-output).
Status EncodeTableAlternative(const std::string &alternative, perf_event_attr *attr) {
  constexpr const char *kSoftware = "software:";
  if (!StartsWith(alternative, kSoftware)) return EncodePfmEvent(alternative, attr);
  const std::string number = alternative.substr(strlen(kSoftware));
  char *end = nullptr;
  errno = 0;
  const unsigned long long config = strtoull(number.c_str(), &end, 10);
  if (number.empty() || number[0] == '-' || *end != '\0' || errno != 0 || config > UINT32_MAX) {
    return Status(
        Pmapi_InvalidEvent,
        "'" + alternative + "' is not 'software:N' with N a kernel software event number");
  }
  attr->type = PERF_TYPE_SOFTWARE;
  attr->config = config;
  attr->config1 = 0;
  attr->config2 = 0;
  return Status::Ok();
}

Status EncodeTableEvent(const std::string & /*tracefs_root*/, const std::string &name,
                        perf_event_attr *attr) {
  return EncodeTableAlternative(name, attr);
}

}  // namespace

PfmSnapshot TakePfmSnapshot(std::shared_future<const std::vector<TableRecord> *> records) {
  PfmSnapshot snapshot;
  PfmEnumerate(&snapshot.pmus, &snapshot.events);
  size_t pmu_count = snapshot.pmus.size();
  snapshot.pmu_encoded.assign(pmu_count, false);
  snapshot.pmu_sample.assign(pmu_count, perf_event_attr{});
  snapshot.pmu_error.assign(pmu_count, "");
  std::vector<int> attempts(pmu_count, 0);
  for (const PfmEvent &event : snapshot.events) {
    size_t pmu = static_cast<size_t>(event.pmu_index);
    if (snapshot.pmus[pmu].name == "perf" || snapshot.pmu_encoded[pmu] ||
        attempts[pmu]++ >= kEncodeAttemptsPerPmu) {
      continue;
    }
    Status status =
        EncodePfmEvent(snapshot.pmus[pmu].name + "::" + event.name, &snapshot.pmu_sample[pmu]);
    if (status.ok()) {
      snapshot.pmu_encoded[pmu] = true;
    } else if (snapshot.pmu_error[pmu].empty()) {
      snapshot.pmu_error[pmu] = status.detail();
    }
  }

  for (const TableRecord &record : *records.get()) {
    TableEncoding encoding;
    for (size_t i = 0; i < record.pfm_alternatives.size(); ++i) {
      Status status = EncodeTableAlternative(record.pfm_alternatives[i], &encoding.attr);
      if (status.ok()) {
        encoding.alternative = static_cast<int>(i);
        break;
      }
      if (encoding.first_error.empty()) encoding.first_error = status.detail();
    }
    snapshot.tables.push_back(std::move(encoding));
  }
  return snapshot;
}

namespace {

// One event per record, ids as in the tables.
void EnumerateTables(SourceScan *scan, StatusProbe *probe, std::vector<CatalogEvent> *events) {
  const std::vector<TableRecord> &records = scan->records;
  const PfmSnapshot &snapshot = scan->pfm;
  const ArmPmuEvents &arm = scan->arm;
  for (size_t i = 0; i < records.size(); ++i) {
    const TableRecord &record = records[i];
    const TableEncoding &encoding = snapshot.tables[i];
    CatalogEvent event;
    event.id = record.id;
    event.short_name = record.short_name;
    event.long_name = record.long_name;
    event.description = record.description;
    event.source = EventSource::kTable;
    if (encoding.alternative >= 0) {
      event.encoding = record.pfm_alternatives[static_cast<size_t>(encoding.alternative)];
      // Kept so that Encode needs no libpfm4 (nor its ~2 ms initialization after a cache hit).
      event.encoded.known = true;
      event.encoded.type = encoding.attr.type;
      event.encoded.config = encoding.attr.config;
      event.encoded.config1 = encoding.attr.config1;
      event.encoded.config2 = encoding.attr.config2;
      SetStatus(probe->Accepts(encoding.attr), record.approximate, &event);
      JudgeArmEvent(arm, encoding.attr, &event);
    } else {
      event.encoding = record.pfm_alternatives.front();
      SetCannotEncode(encoding.first_error, &event);
    }
    events->push_back(std::move(event));
  }
}

// POWER's own PMUs (libpfm4's power8, power9, power10) name their events as AIX does
// (PM_RUN_CYC, PM_INST_CMPL): they are listed under those names, as AIX lists them, but for
// the names a table event has, which keep libpfm4's "pmu::" prefix.
bool NamedAsOnAix(const PfmPmu &pmu) { return pmu.is_core && StartsWith(pmu.name, "power"); }

// Every event of every detected libpfm4 PMU, ids from kFirstPfmId; the software events of its
// "perf" PMU among them. The description of the core PMU becomes pm_info_t.proc_name.
void EnumeratePfm(SourceScan *scan, StatusProbe *probe, std::vector<CatalogEvent> *events) {
  const PfmSnapshot &snapshot = scan->pfm;
  std::set<std::string> table_names;
  for (const TableRecord &record : scan->records) table_names.insert(record.short_name);
  const ArmPmuEvents &arm = scan->arm;
  std::string *proc_name = &scan->proc_name;
  for (const PfmPmu &pmu : snapshot.pmus) {
    if (pmu.is_core && proc_name->empty()) *proc_name = pmu.desc;
  }
  events->reserve(events->size() + snapshot.events.size());
  int id = kFirstPfmId;
  for (const PfmEvent &pfm_event : snapshot.events) {
    size_t pmu = static_cast<size_t>(pfm_event.pmu_index);
    const PfmPmu &pmu_info = snapshot.pmus[pmu];
    CatalogEvent event;
    event.id = id++;
    event.encoding = pmu_info.name + "::" + pfm_event.name;
    event.short_name = NamedAsOnAix(pmu_info) && !table_names.count(pfm_event.name)
                           ? pfm_event.name
                           : event.encoding;
    event.long_name = pfm_event.name + " (" + pmu_info.desc + ")";
    event.description = pfm_event.desc;
    event.source = EventSource::kPfm;
    if (pmu_info.name != "perf") {
      if (snapshot.pmu_encoded[pmu]) {
        SetStatus(probe->Accepts(snapshot.pmu_sample[pmu]), false, &event);
        if (StartsWith(pmu_info.name, "arm_")) {
          // libpfm4's ARM tables encode an event as its number alone: config is the code.
          perf_event_attr attr = snapshot.pmu_sample[pmu];
          attr.config = pfm_event.code;
          JudgeArmEvent(arm, attr, &event);
        }
      } else {
        SetCannotEncode(snapshot.pmu_error[pmu].empty() ? "no event of the PMU encodes"
                                                        : snapshot.pmu_error[pmu],
                        &event);
      }
      events->push_back(std::move(event));
      continue;
    }
    uint32_t type = PerfPmuType(pfm_event);
    if (type == PERF_TYPE_SOFTWARE) event.source = EventSource::kSoftware;
    if (type == PERF_TYPE_HARDWARE || type == PERF_TYPE_SOFTWARE) {
      perf_event_attr attr{};
      attr.type = type;
      attr.config = pfm_event.code;  // for the perf PMU the event code is the kernel config
      SetStatus(probe->Accepts(attr), false, &event);
    } else if (type == PERF_TYPE_HW_CACHE && probe->HardwareClass().err != 0) {
      SetStatus(probe->HardwareClass(), false, &event);  // nothing hardware counts here
    } else {
      // Cache events on a machine with a hardware PMU (or an unknown kind): encode to probe.
      perf_event_attr attr{};
      Status status = EncodePfmEvent(event.encoding, &attr);
      if (status.ok()) {
        SetStatus(probe->Accepts(attr), false, &event);
      } else {
        SetCannotEncode(status.detail(), &event);
      }
    }
    events->push_back(std::move(event));
  }
}

std::string DetectPfm() { return PfmInitialize(); }

std::string Present() { return ""; }

}  // namespace

const EventSourceDriver kTableSource{"table", 0, EnumerateTables, EncodeTableEvent, Present};
const EventSourceDriver kPfmSource{"pmu", kFirstPfmId, EnumeratePfm, EncodeWithPfm, DetectPfm};
const EventSourceDriver kSoftwareSource{"software", kFirstPfmId, nullptr, EncodeWithPfm, DetectPfm};

}  // namespace pmapi
