// Field splitting shared by the events/ and groups/ table parsers. They take views so that a
// caller cutting a line out of a table copies it once, trimmed, not twice.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace pmapi {

// `text` without leading and trailing blanks (space, tab, CR).
std::string Trim(std::string_view text);

// `text` cut at every `separator`, each part trimmed; always at least one part.
std::vector<std::string> Split(std::string_view text, char separator);

// "0x1f": filters, configs and other bit fields in messages and listings.
std::string Hex(unsigned long long value);

}  // namespace pmapi
