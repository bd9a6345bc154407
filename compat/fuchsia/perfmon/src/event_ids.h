// Fuchsia event ids <-> names <-> perf_event_attr encodings. The tables of the fixed, arch and
// software groups are data here; model events are the detected core PMU's libpfm4 events, in
// libpfm4's order; tracepoint ids are tracefs ids. Encoding goes through the core's libpfm4
// bridge and tracefs reader.
#pragma once

#include <linux/perf_event.h>

#include <string>

#include "lib/perfmon/events.h"

namespace perfmon {

enum class EventKind { kUnknown, kFixed, kProgrammable, kMisc, kSoftware, kTracepoint };

// What kind of counter `id` needs; kUnknown for an id no table of ours has (the tracepoint
// groups accept every nonzero id: the kernel judges those at Start).
EventKind KindOf(perfmon_event_id_t id);

// Fills attr's type and configs. ZX_ERR_NOT_FOUND (with *why) if the id names nothing here.
zx_status_t EncodeEvent(perfmon_event_id_t id, perf_event_attr *attr, std::string *why);

// "group:name" -> id, and back (events.h).
zx_status_t LookupEvent(const std::string &group, const std::string &name, perfmon_event_id_t *id);
zx_status_t EventName(perfmon_event_id_t id, std::string *name);

}  // namespace perfmon
