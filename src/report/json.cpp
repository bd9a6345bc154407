#include "json.h"

#include <math.h>
#include <stdio.h>

#include "text_format.h"

namespace tools {
namespace {

// Length of the valid UTF-8 sequence starting at text[i], or 0 if it is not one.
size_t Utf8Length(const std::string &text, size_t i) {
  const unsigned char lead = static_cast<unsigned char>(text[i]);
  size_t length;
  uint32_t min;
  if (lead < 0x80) return 1;
  if ((lead & 0xE0) == 0xC0) {
    length = 2;
    min = 0x80;
  } else if ((lead & 0xF0) == 0xE0) {
    length = 3;
    min = 0x800;
  } else if ((lead & 0xF8) == 0xF0) {
    length = 4;
    min = 0x10000;
  } else {
    return 0;
  }
  if (i + length > text.size()) return 0;
  uint32_t code = lead & (0x7F >> length);
  for (size_t k = 1; k < length; ++k) {
    const unsigned char next = static_cast<unsigned char>(text[i + k]);
    if ((next & 0xC0) != 0x80) return 0;
    code = (code << 6) | (next & 0x3F);
  }
  if (code < min || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) return 0;
  return length;
}

}  // namespace

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
