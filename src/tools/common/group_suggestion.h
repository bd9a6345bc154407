/* SPDX-License-Identifier: MIT */
// "Did you mean" for a group name nothing answers to (pmlist -g, hpmcount -g, HPM_EVENT_SET),
// through the library's public suggestion call.
#pragma once

#include <pmapi.h>

#include <string>

namespace tools {

// "; did you mean pm_sw_basic?" when groups that `groups` lists have names close to `name`;
// "" when none has, or before pm_initialize. A group the catalog knows but does not list here
// is not offered: naming it would fail the same way.
std::string GroupSuggestion(const std::string &name, const pm_groups_info_t &groups);

}  // namespace tools
