// SPDX-License-Identifier: MIT
// Adding events by encoding string: classify, encode, probe, publish.
#include "catalog/added_events.h"

#include <strings.h>

#include "catalog/event_sources.h"
#include "catalog/pfm_bridge.h"
#include "pmapi.h"

namespace pmapi {
namespace {

// A tracepoint name is "subsystem:event", each part a tracefs directory name. Anything else
// (a second colon, a slash, "." or "..") is not looked up in tracefs at all: the parts become
// a path there.
bool TracepointShaped(const std::string &name) {
  const size_t colon = name.find(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == name.size()) return false;
  if (name.find(':', colon + 1) != std::string::npos) return false;
  for (char c : name) {
    const bool allowed = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                         (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.' || c == ':';
    if (!allowed) return false;
  }
  const std::string subsystem = name.substr(0, colon), event = name.substr(colon + 1);
  return subsystem != "." && subsystem != ".." && event != "." && event != "..";
}

CatalogEvent NewEvent(const std::string &encoding, EventSource source, const char *what) {
  CatalogEvent event;
  event.short_name = encoding;
  event.encoding = encoding;
  event.source = source;
  event.description = encoding + ": " + what + ", added by name at run time.";
  return event;
}

// Classifies and encodes a name no built event has: a tracepoint when tracefs has one of that
// name, else whatever libpfm4 encodes; `*resolved` is the event to add.
Status ResolveAddedName(const std::string &encoding, const std::string &tracefs_root,
                        CatalogEvent *resolved, perf_event_attr *resolved_attr) {
  perf_event_attr attr{};
  CatalogEvent event;
  std::string tracefs_says;
  if (!tracefs_root.empty() && TracepointShaped(encoding)) {
    Status status = kTracepointSource.encode(tracefs_root, encoding, &attr);
    // No such tracepoint is Pmapi_InvalidEvent: then it may still be a libpfm4 string
    // ("INST_RETIRED:ANY_P" has the same shape). Out of descriptors or memory is not.
    if (status.ok()) {
      event = NewEvent(encoding, EventSource::kTracepoint, "kernel tracepoint");
      event.encoding.clear();  // a tracepoint's short name is its encoding (CatalogEvent)
    } else if (status.code() != Pmapi_InvalidEvent) {
      return status;
    } else {
      tracefs_says = "; no tracepoint has that name either";
    }
  }
  if (event.short_name.empty()) {
    PfmEncoding encoded;
    const std::string error = PfmEncode(encoding, &encoded);  // initializes libpfm4 if need be
    if (!error.empty()) {
      return Status(Pmapi_InvalidEvent,
                    "unknown event '" + encoding + "' (libpfm4: " + error + tracefs_says + ")");
    }
    attr.type = encoded.type;
    attr.config = encoded.config;
    attr.config1 = encoded.config1;
    attr.config2 = encoded.config2;
    const bool software = encoded.type == PERF_TYPE_SOFTWARE;
    event = NewEvent(encoding, software ? EventSource::kSoftware : EventSource::kPfm,
                     "the event libpfm4 encodes for this string");
    // Kept, so that programming it asks libpfm4 nothing more.
    event.encoded.known = true;
    event.encoded.type = attr.type;
    event.encoded.config = attr.config;
    event.encoded.config1 = attr.config1;
    event.encoded.config2 = attr.config2;
  }
  *resolved = std::move(event);
  *resolved_attr = attr;
  return Status::Ok();
}

// The descriptor's encode: the same resolution, adding nothing.
Status EncodeAddedName(const std::string &tracefs_root, const std::string &name,
                       perf_event_attr *attr) {
  CatalogEvent event;
  return ResolveAddedName(name, tracefs_root, &event, attr);
}

std::string Present() { return ""; }

}  // namespace

const EventSourceDriver kAddedSource{"added", -1, nullptr, EncodeAddedName, Present};

AddedEvents::~AddedEvents() {
  for (const CatalogEvent **chunk : chunks_) delete[] chunk;
}

const CatalogEvent *AddedEvents::At(size_t index) const {
  if (index >= size()) return nullptr;
  return chunks_[index / kChunk][index % kChunk];
}

const CatalogEvent *AddedEvents::FindName(std::string_view name) const {
  const size_t count = size();
  for (size_t i = 0; i < count; ++i) {
    const CatalogEvent *event = chunks_[i / kChunk][i % kChunk];
    if (event->short_name == name) return event;
  }
  for (size_t i = 0; i < count; ++i) {
    const CatalogEvent *event = chunks_[i / kChunk][i % kChunk];
    if (event->short_name.size() == name.size() &&
        strncasecmp(event->short_name.data(), name.data(), name.size()) == 0) {
      return event;
    }
  }
  return nullptr;
}

Status AddedEvents::Add(const std::string &encoding, const std::string &tracefs_root, int first_id,
                        const CatalogEvent **added) {
  std::lock_guard<std::mutex> lock(mutex_);
  // Another thread may have added it since the caller looked.
  if (const CatalogEvent *found = FindName(encoding)) {
    *added = found;
    return Status::Ok();
  }
  const size_t index = count_.load(std::memory_order_relaxed);
  if (index >= kCapacity) {
    return Status(Pmapi_InvalidArg, "cannot add " + encoding + ": the catalog already holds " +
                                        std::to_string(kCapacity) + " added events");
  }

  perf_event_attr attr{};
  CatalogEvent event;
  Status status = ResolveAddedName(encoding, tracefs_root, &event, &attr);
  if (!status.ok()) return status;
  const ProbeResult result = probe_.Accepts(attr);
  event.status = StatusFromProbe(result, false);
  AppendNote(&event.description, ProbeNote(result));
  event.id = first_id + static_cast<int>(index);

  const CatalogEvent **&chunk = chunks_[index / kChunk];
  if (!chunk) chunk = new const CatalogEvent *[kChunk]();
  owned_.push_back(std::make_unique<CatalogEvent>(std::move(event)));
  chunk[index % kChunk] = owned_.back().get();
  count_.store(index + 1, std::memory_order_release);
  *added = owned_.back().get();
  return Status::Ok();
}

}  // namespace pmapi
