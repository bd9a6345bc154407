// The little JSON the tools write: string escaping and numbers that JSON accepts. Pure.
#pragma once

#include <stdint.h>

#include <string>

namespace tools {

// `text` as a JSON string literal, quotes included. Control characters become \uXXXX; bytes
// that are not valid UTF-8 become U+FFFD so that the output always parses.
std::string JsonString(const std::string &text);

// A JSON number, or null for not-a-number and infinities (JSON has neither).
std::string JsonNumber(double value);
inline std::string JsonNumber(uint64_t value) { return std::to_string(value); }

}  // namespace tools
