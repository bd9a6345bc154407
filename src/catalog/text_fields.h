// Field splitting shared by the events/ and groups/ table parsers.
#pragma once

#include <string>
#include <vector>

namespace pmapi {

// `text` without leading and trailing blanks (space, tab, CR).
std::string Trim(const std::string &text);

// `text` cut at every `separator`, each part trimmed; always at least one part.
std::vector<std::string> Split(const std::string &text, char separator);

}  // namespace pmapi
