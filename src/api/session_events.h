/* SPDX-License-Identifier: MIT */
// An event spec into a counting session's events: each name resolved as pm_select_events
// resolves it, each wildcard expanded by pmlist's search rule (event_search) to every countable
// event it matches, and each event encoded with its own privilege levels.
#pragma once

#include <string>
#include <vector>

#include "base/status.h"
#include "core/session_event.h"

namespace pmapi {

// Appends the events of `spec` to `events`, or leaves it as it was and says which name was
// refused and why (Pmapi_InvalidEvent).
Status SessionEventsOf(const std::string &spec, std::vector<SessionEvent> *events);

}  // namespace pmapi
