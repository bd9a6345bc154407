// pmlist's two outputs: an aligned table, or one JSON document.
#pragma once

#include <string>
#include <vector>

#include "listing.h"

namespace pmlist {

std::string EventTable(const std::vector<EventRow> &rows, bool verbose);
std::string GroupTable(const std::vector<GroupRow> &rows);
std::string EventJson(const std::string &processor, const std::vector<EventRow> &rows,
                      bool verbose);
std::string GroupJson(const std::string &processor, const std::vector<GroupRow> &rows);

}  // namespace pmlist
