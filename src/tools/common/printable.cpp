// SPDX-License-Identifier: MIT
#include "printable.h"

#include <stdio.h>

#include "utf8.h"

namespace tools {
namespace {

bool IsContinuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

}  // namespace

std::string Printable(const std::string &text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    char escaped[8];
    if (c < 0x20 || c == 0x7F) {
      snprintf(escaped, sizeof escaped, "\\x%02x", c);
      out += escaped;
      ++i;
      continue;
    }
    const size_t length = Utf8Length(text, i);
    if (length == 0) {
      out += "\xEF\xBF\xBD";  // U+FFFD
      ++i;
      continue;
    }
    const unsigned char next = length == 2 ? static_cast<unsigned char>(text[i + 1]) : 0;
    if (c == 0xC2 && next < 0xA0) {  // U+0080 to U+009F: C1 controls (0x9B is CSI)
      snprintf(escaped, sizeof escaped, "\\u%04x", next);
      out += escaped;
    } else {
      out.append(text, i, length);
    }
    i += length;
  }
  return out;
}

size_t CharacterCount(const std::string &text) {
  size_t count = 0;
  for (char c : text) count += !IsContinuation(c);
  return count;
}

std::string FirstCharacters(const std::string &text, size_t count) {
  size_t end = 0, seen = 0;
  while (end < text.size()) {
    if (!IsContinuation(text[end]) && seen++ == count) break;
    ++end;
  }
  return text.substr(0, end);
}

}  // namespace tools
