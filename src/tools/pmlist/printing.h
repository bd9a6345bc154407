/* SPDX-License-Identifier: MIT */
// pmlist's two outputs: an aligned table, or one JSON document.
#pragma once

#include <stddef.h>

#include <string>
#include <vector>

#include "listing.h"

namespace pmlist {

// `width`: the terminal's, to wrap descriptions at (text_wrap.h), or 0 for one line per event.
std::string EventTable(const std::vector<EventRow> &rows, bool verbose, size_t width);
std::string GroupTable(const std::vector<GroupRow> &rows);
std::string EventJson(const std::string &processor, const std::vector<EventRow> &rows,
                      bool verbose);
std::string GroupJson(const std::string &processor, const std::vector<GroupRow> &rows);

}  // namespace pmlist
