// Kernel tracepoints, named "<subsystem>:<name>" (e.g. syscalls:sys_enter_getppid), listed
// from tracefs. Listing reads the one file available_events (~1 ms for ~2300 tracepoints here;
// walking events/<subsystem>/ costs as much or more, see docs/catalog.md); the per-tracepoint
// id file is read only when an event is encoded.
#pragma once

#include <linux/perf_event.h>

#include <string>
#include <vector>

#include "base/status.h"
#include "catalog/catalog.h"
#include "catalog/status_probe.h"

namespace pmapi {

struct TracepointList {
  std::string tracefs_root;        // "" when tracefs is neither mounted nor readable
  std::vector<std::string> names;  // in the kernel's order
};

// Tries /sys/kernel/tracing, then /sys/kernel/debug/tracing.
TracepointList ListTracepoints();

// Whether ListTracepoints could read a tracepoint list now (access(2) alone, no read).
bool TracefsReadable();

// Catalog events for the listed tracepoints, ids from kFirstTracepointId; one class probe
// decides all their statuses.
void AddTracepointEvents(TracepointList list, StatusProbe *probe,
                         std::vector<CatalogEvent> *events);

// PERF_TYPE_TRACEPOINT with config = the tracepoint's tracefs id.
Status EncodeTracepoint(const std::string &tracefs_root, const std::string &name,
                        perf_event_attr *attr);

}  // namespace pmapi
