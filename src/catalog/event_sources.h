/* SPDX-License-Identifier: MIT */
// The catalog's sources of events, each described the same way, as libpfm4 describes each of
// its PMUs with one pfmlib_pmu_t: a name, how it enumerates its events, how it encodes one,
// and whether it can offer events on this machine at all. The sources are the curated tables
// (events/*.tbl, encoded through libpfm4), every PMU libpfm4 detects, the kernel software
// events libpfm4 names, the kernel PMUs' sysfs events, the tracefs tracepoints, and the events
// a client adds by name at run time (added_events.h). The catalog builds itself by asking each
// source to enumerate (AssembleCatalog) and encodes any event through its source's descriptor.
//
// Statuses come from probing the running kernel (StatusProbe): one perf_event_open on the
// calling thread (pid 0, cpu -1, user mode only, disabled), closed at once, and one answer
// stands for a whole class where the kernel decides per class (docs/catalog.md).
#pragma once

#include <linux/perf_event.h>
#include <stddef.h>
#include <stdint.h>

#include <future>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "base/status.h"
#include "catalog/catalog.h"
#include "catalog/catalog_contents.h"
#include "catalog/pfm_bridge.h"
#include "catalog/tables.h"

namespace pmapi {

// ---- Ids ---------------------------------------------------------------------------------
// Where each discovered source's ids start inside CatalogContents (the Catalog renumbers them,
// docs/catalog.md). Table ids are 1..99999; discovered events are numbered from a base in a
// deterministic order.
constexpr int kFirstPfmId = 100000;          // libpfm4 events, in libpfm4's enumeration order
constexpr int kFirstSysfsPmuId = 1000000;    // sysfs PMU events, sorted by PMU then event name
constexpr int kFirstTracepointId = 2000000;  // tracepoints, in the kernel's available_events order

// ---- Status probes (event_sources.cpp) ---------------------------------------------------

struct ProbeResult {
  int err = 0;                    // 0: accepted; else the errno the kernel gave
  bool needs_both_modes = false;  // accepted only when counting user and kernel mode together
  bool no_hardware_pmu = false;   // refused because the kernel has no hardware PMU
};

// Generic hardware and hardware-cache events: one probe (cycles) decides whether there is a
// hardware PMU at all; only if there is are the events probed one by one. Tracepoints: one probe
// for all (TracepointClass). Everything else: per encoding, and the sources call it once per PMU.
class StatusProbe {
 public:
  ProbeResult Accepts(const perf_event_attr &attr);
  ProbeResult HardwareClass();
  ProbeResult TracepointClass();
  // Asks about every kernel software event and the hardware class up front, so that the
  // catalog can do it while libpfm4 initializes on another thread.
  void ProbeKernelGenericEvents();

 private:
  using Key = std::tuple<uint32_t, uint64_t, uint64_t, uint64_t>;
  std::map<Key, ProbeResult> cache_;
  bool hardware_probed_ = false;
  ProbeResult hardware_;
  bool tracepoint_probed_ = false;
  ProbeResult tracepoint_;
};

// The status a probe result gives an event whose mapping is exact or approximate.
EventStatus StatusFromProbe(const ProbeResult &result, bool approximate);

// "" for a plain acceptance, otherwise the sentence to append to the description, e.g.
// "(not countable here: the kernel has no hardware PMU for it)".
std::string ProbeNote(const ProbeResult &result);

// Appends `note` to `description` with a space, if there is a note.
void AppendNote(std::string *description, const std::string &note);

// ---- sysfs PMUs (sysfs_pmu_source.cpp) ---------------------------------------------------
// /sys/bus/event_source/devices/<pmu>/events/<event>, named "<pmu>/<event>" (e.g. msr/tsc).

constexpr const char *kSysfsPmuRoot = "/sys/bus/event_source/devices";

struct SysfsPmuEvents {
  std::string pmu;
  std::vector<std::string> events;  // sorted
};

// Lists the PMUs that declare events, both sorted by name (readdir order is not stable).
std::vector<SysfsPmuEvents> ListSysfsPmuEvents();

// Which ARMv8 PMU events this processor implements, as its kernel driver lists them. The
// kernel opens any raw event number on an ARMv8 PMU, implemented or not, and one the PMU does
// not implement counts 0; only sysfs tells them apart: armv8_pmuv3 lists under events/ exactly
// the common events its PMCEID registers declare. Implementation-defined events (0x40 and up)
// are never declared there.
struct ArmPmuEvents {
  std::string pmu;                 // the first ARMv8 PMU found ("armv8_pmuv3_0"); "" if none
  std::set<uint32_t> types;        // its perf type numbers (PERF_TYPE_RAW reaches it too)
  std::set<uint64_t> implemented;  // event numbers its events/ files name
};

// Reads the events of the listed PMUs named armv8_* (the kernel's arm_pmuv3 driver). On a
// big.LITTLE machine an event counts as implemented if any of its PMUs lists it.
ArmPmuEvents ListArmPmuEvents(const std::vector<SysfsPmuEvents> &pmus);

// For an event encoded as `attr` with status already set by a probe: when `attr` goes to the
// ARMv8 PMU and the probe accepted it, a common event number (below 0x40) the PMU does not list
// becomes unverified, and any other unlisted number a caveat, each saying why.
void JudgeArmEvent(const ArmPmuEvents &arm, const perf_event_attr &attr, CatalogEvent *event);

// True when JudgeArmEvent found `event` missing from the PMU (the judgement lives in the
// description, so it survives the catalog cache); `*why` is its reason.
bool PmuLacksEvent(const CatalogEvent &event, std::string *why);

// ---- Tracepoints (tracepoint_source.cpp) -------------------------------------------------
// "<subsystem>:<name>" (e.g. syscalls:sys_enter_getppid), listed from the one file
// available_events (~1 ms for ~2300 tracepoints here); a tracepoint's id file is read only
// when it is encoded.

struct TracepointList {
  std::string tracefs_root;        // "" when tracefs is neither mounted nor readable
  std::vector<std::string> names;  // in the kernel's order
};

// Tries /sys/kernel/tracing, then /sys/kernel/debug/tracing.
TracepointList ListTracepoints();

// ---- libpfm4 and the tables (pfm_source.cpp) ---------------------------------------------

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
// only after pfm_initialize, so the caller can parse tables meanwhile. Makes no system calls
// that matter, so the catalog runs it on a worker thread while it reads sysfs and tracefs.
PfmSnapshot TakePfmSnapshot(std::shared_future<const std::vector<TableRecord> *> records);

// ---- The descriptor ----------------------------------------------------------------------

// What the sources enumerate from while a catalog is built: read once, each part by the
// source that owns it (the libpfm4 part on a worker thread).
struct SourceScan {
  std::vector<TableRecord> records;
  PfmSnapshot pfm;
  std::vector<SysfsPmuEvents> sysfs_pmus;
  ArmPmuEvents arm;  // judges raw ARMv8 encodings, which the kernel accepts implemented or not
  TracepointList tracepoints;
  std::string proc_name;  // set by the libpfm4 source: its core PMU's description
};

// kDrivers (event_sources.cpp) holds one for each EventSource, in the enum's order.
struct EventSourceDriver {
  const char *name;  // as pmlist's --source names it: "table", "pmu", "software", ...
  // The first id of its events inside CatalogContents (0: the table records' own ids; -1: the
  // added events, which take the ids after every built one).
  int first_id;
  // Appends the source's events, numbered from first_id, with statuses from `probe`. nullptr
  // when another source enumerates them (libpfm4's "perf" PMU names the software events).
  void (*enumerate)(SourceScan *scan, StatusProbe *probe, std::vector<CatalogEvent> *events);
  // Fills type, config, config1, config2 for `name`, the event's encoding string (a
  // tracepoint's short name is its encoding); `tracefs_root` is where tracepoint ids are read.
  Status (*encode)(const std::string &tracefs_root, const std::string &name, perf_event_attr *attr);
  // "" when the source can offer events here; otherwise why not (libpfm4's initialization
  // error, tracefs unreadable, no sysfs PMU directory). Reads nothing but what that needs.
  std::string (*detect)();
};

// Defined beside each source's code.
extern const EventSourceDriver kTableSource;       // pfm_source.cpp
extern const EventSourceDriver kPfmSource;         // pfm_source.cpp
extern const EventSourceDriver kSoftwareSource;    // pfm_source.cpp
extern const EventSourceDriver kSysfsPmuSource;    // sysfs_pmu_source.cpp
extern const EventSourceDriver kTracepointSource;  // tracepoint_source.cpp
extern const EventSourceDriver kAddedSource;       // added_events.cpp

// The descriptor of `kind`'s source, or nullptr for a value no source has (a corrupt cache).
const EventSourceDriver *SourceDriver(EventSource kind);

// ---- Building (event_sources.cpp) --------------------------------------------------------

// Fills `contents` from the sources through the current kernel seam. Returns the table load
// status (non-ok when a table failed to parse; the contents are then built from the usable
// records).
Status AssembleCatalog(CatalogContents *contents);

// Populates the whole pages inside [block, block + size) for writing
// (madvise(MADV_POPULATE_WRITE)): the catalog's ~2500 events are ~440 KB, ~110 page faults of
// ~1 us apiece on the development VM, of which this saves about half. A hint: a kernel without
// it (before 5.14) refuses, and the pages fault in as they are written.
void PrefaultForWriting(void *block, size_t size);

}  // namespace pmapi
