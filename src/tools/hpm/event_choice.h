/* SPDX-License-Identifier: MIT */
// Which events hpmcount and hpmstat count, as AIX chooses them: -g groups, -s sets, -m metric
// groups (or -e events) on the command line; else a libHPM_events file in the working
// directory; else HPM_EVENT_SET, HPM_EVENT_GROUP and HPM_PMD_GROUP; else the machine's default
// (pmcount's). Group names and numbers are looked up in pm_initialize's group list, whose
// numbers are the ones pmapi programs and pmlist -g -1 show.
#pragma once

#include <pmapi.h>

#include <string>
#include <vector>

#include "hpm_options.h"

namespace aix {

struct EventChoice {
  std::vector<std::string> groups;   // short names: one is a group, more are multiplexed
  std::string events;                // an event list (-e, or a file or variable naming events)
  std::string source;                // "-g", "libHPM_events", "HPM_EVENT_SET", ... or "default"
  std::vector<std::string> metrics;  // -D: the derived metrics to show (empty: all)
};

// Needs pm_initialize done with PM_GET_GROUPS; `groups` is its list. Returns "" or the error
// to print as a usage error.
std::string ChooseEvents(const HpmOptions &options, const pm_groups_info_t &groups,
                         EventChoice *choice);

// The groups a comma list names, by short name or number; "0" alone (for -s) is every group.
// Returns "" or what is wrong. Pure apart from the list given.
std::string ResolveGroups(const std::string &list, bool zero_is_all, const pm_groups_info_t &groups,
                          std::vector<std::string> *names);

// The libHPM_events file of the working directory: `text` gets its words (comments from '#'
// removed) when it is a readable regular file. Returns false when it is absent; a file that
// cannot be used leaves `why` saying so.
bool ReadLibHpmEvents(std::string *text, std::string *why);

}  // namespace aix
