/* SPDX-License-Identifier: MIT */
// The events and mode hpmcount and hpmstat count, selected as pmcount selects them (through
// the library's pm_select_events), and the notes for what Linux lacks among the options given.
#pragma once

#include <string>
#include <vector>

#include "count_mode.h"
#include "event_choice.h"
#include "event_selection.h"
#include "hpm_options.h"

namespace aix {

// One set, or one per multiplexed group.
struct Prepared {
  std::vector<tools::Selection> sets;
  tools::Mode mode;                  // of the events that name no :u or :k of their own
  bool per_event = false;            // one set whose events name different levels (-e a:u,a:k)
  std::vector<std::string> notes;    // what Linux lacks for the options given
  std::vector<std::string> metrics;  // -D: the metrics to show (empty: all)
  long slice_ms = 100;               // multiplexing: each group's turn (HPM_SLICE_DURATION)
};

// Selects the events of `choice` and the mode of `options`. Needs pm_initialize done.
// Returns "" or a usage error.
std::string Prepare(const HpmOptions &options, const EventChoice &choice, Prepared *prepared);

}  // namespace aix
