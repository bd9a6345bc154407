// SPDX-License-Identifier: MIT
#include "json.h"

#include <math.h>
#include <stdio.h>

#include "text_format.h"
#include "utf8.h"

namespace tools {

std::string JsonString(const std::string &text) {
  std::string out = "\"";
  out.reserve(text.size() + 2);
  for (size_t i = 0; i < text.size();) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    switch (c) {
      case '"':
        out += "\\\"";
        ++i;
        continue;
      case '\\':
        out += "\\\\";
        ++i;
        continue;
      case '\n':
        out += "\\n";
        ++i;
        continue;
      case '\t':
        out += "\\t";
        ++i;
        continue;
      default:
        break;
    }
    if (c < 0x20 || c == 0x7F) {
      char escaped[8];
      snprintf(escaped, sizeof escaped, "\\u%04x", c);
      out += escaped;
      ++i;
      continue;
    }
    const size_t length = Utf8Length(text, i);
    if (length == 0) {
      out += "\\ufffd";
      ++i;
      continue;
    }
    out.append(text, i, length);
    i += length;
  }
  out += '"';
  return out;
}

std::string JsonNumber(double value) {
  if (!isfinite(value)) return "null";
  // Integers print exactly (counts up to 2^53); others with ten significant digits (more is noise
  // for a count or a ratio).
  if (value == floor(value) && fabs(value) < 9007199254740992.0) return Fixed(value, 0);
  char text[40];
  snprintf(text, sizeof text, "%.10g", value);
  std::string out = text;
  for (char &c : out) {
    if (c == ',') c = '.';  // a locale's decimal comma
  }
  return out;
}

std::string JsonNumber(double value, int significant) {
  if (!isfinite(value)) return "null";
  char text[48];
  snprintf(text, sizeof text, "%.*g", significant, value);
  for (char *c = text; *c; ++c) {
    if (*c == ',') *c = '.';  // a locale's decimal comma
  }
  return text;
}

}  // namespace tools
