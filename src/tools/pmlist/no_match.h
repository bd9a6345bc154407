/* SPDX-License-Identifier: MIT */
// What pmlist says when its search finds nothing, instead of an empty table: the word nothing
// contains, with the names and words closest to it ("did you mean"); that each word matches
// alone but not all together; or that --status or --source left the matches out.
#pragma once

#include <string>

#include "options.h"

namespace pmlist {

// For an event search (`options.pattern` not empty) that listed nothing.
std::string NoEventMatches(const Options &options);
// For a group search (--groups WORD...) that listed nothing.
std::string NoGroupMatches(const Options &options);

}  // namespace pmlist
