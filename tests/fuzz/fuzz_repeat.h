/* SPDX-License-Identifier: MIT */
// A repeat notation for the table and formula fuzzers, so that a few bytes of input can stand
// for the hostile sizes a table file may have (docs/catalog.md, "Run-time table directories"):
// "\x7f<count>\x7f<unit>\x7f" becomes <unit> written <count> times. "\x7f200000\x7f(\x7f" is
// a formula nested 200,000 deep, which is how the parser's stack overflow was found. The
// expansion stops at kFuzzRepeatLimit characters; DEL (0x7f) means nothing in any table.
#pragma once

#include <stddef.h>

#include <string>

namespace pmapi_fuzz {

constexpr size_t kFuzzRepeatLimit = 1u << 20;

inline std::string ExpandRepeats(const std::string &text) {
  std::string out;
  size_t position = 0;
  while (position < text.size() && out.size() < kFuzzRepeatLimit) {
    size_t mark = text.find('\x7f', position);
    size_t count_end = mark == std::string::npos ? mark : text.find('\x7f', mark + 1);
    size_t unit_end = count_end == std::string::npos ? count_end : text.find('\x7f', count_end + 1);
    if (unit_end == std::string::npos) {
      out.append(text, position, std::string::npos);
      break;
    }
    out.append(text, position, mark - position);
    size_t count = 0;
    for (size_t i = mark + 1; i < count_end && count <= kFuzzRepeatLimit; ++i) {
      if (text[i] >= '0' && text[i] <= '9') count = count * 10 + static_cast<size_t>(text[i] - '0');
    }
    const std::string unit = text.substr(count_end + 1, unit_end - count_end - 1);
    for (size_t i = 0; i < count && !unit.empty() && out.size() < kFuzzRepeatLimit; ++i) {
      out += unit;
    }
    position = unit_end + 1;
  }
  if (out.size() > kFuzzRepeatLimit) out.resize(kFuzzRepeatLimit);
  return out;
}

}  // namespace pmapi_fuzz
