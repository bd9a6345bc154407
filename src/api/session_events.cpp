// SPDX-License-Identifier: MIT
#include "api/session_events.h"

#include <algorithm>

#include "api/event_lookup.h"
#include "api/event_search.h"
#include "api/event_spec.h"
#include "api/export.h"
#include "api/suggest.h"
#include "api/tracefs_hint.h"
#include "catalog/catalog.h"

namespace pmapi {
namespace {

constexpr size_t kSuggestions = 4;

// The modifiers written after a name or pattern, as a ":" suffix for each event it becomes.
std::string Modifiers(const EventSpec &spec) {
  std::string suffix = spec.text.substr(std::min(spec.name.size(), spec.text.size()));
  if (!suffix.empty() && suffix[0] != ':') suffix = ":" + suffix;
  return suffix;
}

std::string OrList(const std::vector<std::string> &names) {
  std::string text;
  for (size_t i = 0; i < names.size(); ++i) {
    text += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
  }
  return text;
}

Status NothingMatches(const std::string &pattern) {
  if (LooksLikeTracepoint(pattern)) {
    const std::string why = TracefsUnreadable();
    if (!why.empty())
      return Status(Pmapi_InvalidEvent, "no event matches '" + pattern + "': " + why);
  }
  std::vector<std::string> names;
  for (const CatalogEvent *event : Catalog::Get().InIdOrder()) names.push_back(event->short_name);
  std::vector<std::string> close = CorrectedPatterns(pattern, names, kSuggestions);
  if (close.empty()) close = ClosestNames(WithoutWildcards(pattern), names, kSuggestions);
  return Status(Pmapi_InvalidEvent,
                "no event matches '" + pattern + "'" +
                    (close.empty() ? "" : "; did you mean " + OrList(close) + "?") + " (pmlist '" +
                    pattern + "' lists what a pattern matches)");
}

Status Encoded(const CatalogEvent &entry, const std::string &name, const EventSpec &spec,
               SessionEvent *out) {
  SessionEvent event;
  event.event_id = entry.id;
  event.name = name;
  Status status = Catalog::Get().Encode(entry, &event.attr);
  if (!status.ok()) return status;
  event.attr.size = sizeof(perf_event_attr);
  // Without modifiers every level counts, as perf counts an event written bare.
  event.attr.exclude_user = spec.has_mode && !spec.user;
  event.attr.exclude_kernel = spec.has_mode && !spec.kernel;
  event.attr.exclude_hv = spec.has_mode && !spec.hypervisor;
  event.kind = KindOf(event.attr);
  *out = std::move(event);
  return Status::Ok();
}

Status Expand(const EventSpec &spec, std::vector<SessionEvent> *out) {
  const std::string modifiers = Modifiers(spec);
  size_t uncountable = 0;
  std::string first_uncountable, why;
  const size_t before = out->size();
  for (const CatalogEvent *entry : Catalog::Get().InIdOrder()) {
    if (!NameMatchesPattern(spec.name, entry->short_name)) continue;
    std::string reason;
    if (!Countable(*entry, &reason)) {
      if (uncountable++ == 0) {
        first_uncountable = entry->short_name;
        why = reason;
      }
      continue;
    }
    SessionEvent event;
    Status status = Encoded(*entry, entry->short_name + modifiers, spec, &event);
    if (!status.ok()) return status;
    out->push_back(std::move(event));
  }
  if (out->size() > before) return Status::Ok();
  if (uncountable == 0) return NothingMatches(spec.name);
  return Status(Pmapi_InvalidEvent, "'" + spec.name + "' matches " + std::to_string(uncountable) +
                                        (uncountable == 1 ? " event" : " events") +
                                        ", none countable here (" + first_uncountable + ": " + why +
                                        "); pmlist '" + spec.name + "' lists them");
}

Status Named(const EventSpec &spec, std::vector<SessionEvent> *out) {
  const CatalogEvent *entry = FindListedEvent(spec.name, true);
  std::string refusal;
  if (!entry) entry = AddByEncoding(spec.name, &refusal);
  if (!entry) {
    std::vector<std::string> close;
    return Status(Pmapi_InvalidEvent, UnknownEvent(spec.name, refusal, &close));
  }
  // An id shows as the event's name: "1000" tells nothing.
  const std::string name = IsNumber(spec.name) ? entry->short_name + Modifiers(spec) : spec.text;
  SessionEvent event;
  Status status = Encoded(*entry, name, spec, &event);
  if (!status.ok()) return status;
  out->push_back(std::move(event));
  return Status::Ok();
}

}  // namespace

Status SessionEventsOf(const std::string &spec, std::vector<SessionEvent> *events) {
  std::vector<EventSpec> specs;
  const std::string error = ParseEventList(spec, &specs);
  if (!error.empty()) return Status(Pmapi_InvalidEvent, error);
  std::vector<SessionEvent> added;
  for (const EventSpec &one : specs) {
    Status status = HasWildcard(one.name) ? Expand(one, &added) : Named(one, &added);
    if (!status.ok()) return status;
  }
  events->insert(events->end(), std::make_move_iterator(added.begin()),
                 std::make_move_iterator(added.end()));
  return Status::Ok();
}

}  // namespace pmapi
