// Catalog events from libpfm4: the table records (encoded through libpfm4) and every event of
// the PMUs libpfm4 detects. The libpfm4 work (TakePfmSnapshot) makes no system calls that
// matter, so the catalog runs it on a worker thread while it reads sysfs and tracefs.
#pragma once

#include <linux/perf_event.h>

#include <future>
#include <string>
#include <vector>

#include "catalog/arm_pmu_events.h"
#include "catalog/catalog.h"
#include "catalog/pfm_bridge.h"
#include "catalog/status_probe.h"
#include "catalog/tables.h"

namespace pmapi {

// What libpfm4 says about one table record: the first alternative it encodes.
struct TableEncoding {
  int alternative = -1;  // index into pfm_alternatives, or -1 if none encodes here
  perf_event_attr attr{};
  std::string first_error;
};

struct PfmSnapshot {
  std::vector<PfmPmu> pmus;
  std::vector<PfmEvent> events;
  // Per model-specific PMU: the encoding of its first encodable event, which stands for all
  // its events in the status probe ("perf" is classified per event instead).
  std::vector<bool> pmu_encoded;
  std::vector<perf_event_attr> pmu_sample;
  std::vector<std::string> pmu_error;
  std::vector<TableEncoding> tables;  // parallel to the records
};

// pfm_initialize, enumeration, and the encodings the status probes need. Waits for `records`
// only after pfm_initialize, so the caller can parse tables meanwhile.
PfmSnapshot TakePfmSnapshot(std::shared_future<const std::vector<TableRecord> *> records);

// One event per record, ids as in the tables. `arm` judges raw ARMv8 encodings the kernel
// accepts whether or not the PMU implements them.
void AddTableEvents(const std::vector<TableRecord> &records, const PfmSnapshot &snapshot,
                    StatusProbe *probe, const ArmPmuEvents &arm, std::vector<CatalogEvent> *events);

// Every event of every detected libpfm4 PMU, ids from kFirstPfmId. `proc_name` receives the
// description of the core PMU libpfm4 detected, for pm_info_t.proc_name.
void AddPfmEvents(const PfmSnapshot &snapshot, StatusProbe *probe, const ArmPmuEvents &arm,
                  std::vector<CatalogEvent> *events, std::string *proc_name);

// type/config/config1/config2 for a libpfm4 event string.
Status EncodePfmEvent(const std::string &name, perf_event_attr *attr);

}  // namespace pmapi
