/* SPDX-License-Identifier: MIT */
// Which privilege levels to count: -u/-k, the events' own :u/:k, or the default, which is
// both where the kernel allows it and user mode only where it does not.
#pragma once

#include <string>
#include <vector>

#include "count_options.h"
#include "event_selection.h"

namespace tools {

struct Mode {
  bool user = true;
  bool kernel = true;
};

// Returns "" or a usage error (events asking for different modes: one pmapi program has one).
// Appends a note when the default had to leave kernel mode out. `per_event` non-null: for a
// session, where each event has its own levels, events may differ; *per_event then says
// whether they do, and *mode is the levels of the events that chose none.
std::string ChooseMode(const Options &options, const Selection &selection, Mode *mode,
                       std::vector<std::string> *notes, bool *per_event = nullptr);

// "user+kernel", "user" or "kernel".
std::string ModeName(const Mode &mode);

}  // namespace tools
