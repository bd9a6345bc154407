/* SPDX-License-Identifier: MIT */
// Fuchsia event ids <-> names <-> perf_event_attr encodings. The ids and names are Fuchsia's
// (fixed, arch) or ours (linux, tracepoint); the Linux event behind each is libpmapi's: the
// selection call every front end uses (pm_select_events) finds it in the catalog, which encodes
// it. Fixed and arch ids stand for perf's generic events, so they count on any PMU; linux ids
// are the catalog's software events, model ids the core PMU's events the catalog has from
// libpfm4, tracepoint ids tracefs ids.
#pragma once

#include <linux/perf_event.h>

#include <string>

#include "lib/perfmon/events.h"

namespace perfmon {

enum class EventKind { kUnknown, kFixed, kProgrammable, kMisc, kSoftware, kTracepoint };

// What kind of counter `id` needs; kUnknown for an id no group of ours has (the tracepoint
// groups accept every nonzero id: the kernel judges those at Start).
EventKind KindOf(perfmon_event_id_t id);

// Fills attr's type and configs. ZX_ERR_NOT_FOUND (with *why) if the id names nothing here,
// ZX_ERR_NOT_SUPPORTED if the library cannot encode its event here.
zx_status_t EncodeEvent(perfmon_event_id_t id, perf_event_attr *attr, std::string *why);

// "group:name" -> id, and back (events.h).
zx_status_t LookupEvent(const std::string &group, const std::string &name, perfmon_event_id_t *id);
zx_status_t EventName(perfmon_event_id_t id, std::string *name);

}  // namespace perfmon
