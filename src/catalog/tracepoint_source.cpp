// SPDX-License-Identifier: MIT
// The tracepoint source: the one place the catalog reads tracefs (listing, ids, whether it is
// there at all), through the tracefs helper (base/tracefs.h).
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include <algorithm>

#include "base/kernel.h"
#include "base/tracefs.h"
#include "catalog/event_sources.h"
#include "pmapi.h"

namespace pmapi {
TracepointList ListTracepoints() {
  TracepointList list;
  std::string text;
  list.tracefs_root = FindTracefsRoot("available_events", &text);
  if (list.tracefs_root.empty()) return list;
  // One line a tracepoint: sized once, not grown ~12 times through fresh memory.
  list.names.reserve(static_cast<size_t>(std::count(text.begin(), text.end(), '\n')) + 1);
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    // Each line is "subsystem:name"; anything else is not a tracepoint we can name.
    size_t colon = text.find(':', start);
    if (end > start && colon != std::string::npos && colon > start && colon + 1 < end) {
      list.names.emplace_back(text, start, end - start);
    }
    start = end + 1;
  }
  return list;
}

namespace {

// PERF_TYPE_TRACEPOINT with config = the tracepoint's tracefs id.
Status EncodeTracepoint(const std::string &tracefs_root, const std::string &name,
                        perf_event_attr *attr) {
  const std::string path = TracepointIdPath(tracefs_root, name);
  if (tracefs_root.empty() || path.empty()) {
    return Status(Pmapi_InvalidEvent, "tracepoint " + name + ": tracefs is not available");
  }
  std::string text;
  uint64_t id = 0;
  int err = ReadTracepointId(path, &id, &text);
  if (err == -ENOENT) {
    return Status(Pmapi_InvalidEvent,
                  "tracepoint " + name + ": cannot read " + path + ": " + strerror(-err));
  }
  // Out of descriptors or memory is not a bad event: keep the code that says so.
  if (err < 0) return StatusFromFileErrno(-err, "tracepoint " + name + ": cannot read " + path);
  if (err > 0) {
    return Status(Pmapi_InvalidEvent, "tracepoint " + name + ": bad id '" + text + "' in " + path);
  }
  attr->type = PERF_TYPE_TRACEPOINT;
  attr->config = id;
  attr->config1 = 0;
  attr->config2 = 0;
  return Status::Ok();
}

// Catalog events for the listed tracepoints, ids from kFirstTracepointId; one class probe
// decides all their statuses.
void EnumerateTracepoints(SourceScan *scan, StatusProbe *probe, std::vector<CatalogEvent> *events) {
  TracepointList list = std::move(scan->tracepoints);
  if (list.names.empty()) return;
  ProbeResult result = probe->TracepointClass();
  EventStatus status = StatusFromProbe(result, false);
  std::string note = ProbeNote(result);
  // ~2300 events: built with one allocation per string (this loop is a visible part of
  // pm_initialize's cost). No long name and no encoding string: both are the short name.
  static const char kPrefix[] = "Kernel tracepoint ";
  static const char kSuffix[] = ": counts the times the kernel passes it.";
  int id = kFirstTracepointId;
  events->reserve(events->size() + list.names.size());
  for (std::string &name : list.names) {
    events->emplace_back();
    CatalogEvent &event = events->back();
    event.id = id++;
    event.description.reserve(sizeof kPrefix + name.size() + sizeof kSuffix + 1 + note.size());
    event.description.append(kPrefix).append(name).append(kSuffix);
    AppendNote(&event.description, note);
    event.short_name = std::move(name);
    event.source = EventSource::kTracepoint;
    event.status = status;
  }
}

// Whether a tracepoint list can be read now: access(2) alone, no read.
std::string DetectTracefs() {
  if (!FindTracefsRoot("available_events", nullptr).empty()) return "";
  return std::string("no readable available_events under ") + kTracefsRoots[0] + " or " +
         kTracefsRoots[1] + " (tracefs not mounted, or not readable by this user)";
}

}  // namespace

const EventSourceDriver kTracepointSource{"tracepoint", kFirstTracepointId, EnumerateTracepoints,
                                          EncodeTracepoint, DetectTracefs};

}  // namespace pmapi
