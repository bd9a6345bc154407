#include "catalog/text_fields.h"

#include <stdio.h>

namespace pmapi {

std::string Trim(std::string_view text) {
  const char *blanks = " \t\r";
  size_t begin = text.find_first_not_of(blanks);
  if (begin == std::string_view::npos) return "";
  size_t end = text.find_last_not_of(blanks);
  return std::string(text.substr(begin, end - begin + 1));
}

std::vector<std::string> Split(std::string_view text, char separator) {
  std::vector<std::string> parts;
  size_t start = 0;
  for (;;) {
    size_t end = text.find(separator, start);
    parts.push_back(Trim(text.substr(start, end == std::string_view::npos ? end : end - start)));
    if (end == std::string_view::npos) return parts;
    start = end + 1;
  }
}

std::string Hex(unsigned long long value) {
  char text[24];
  snprintf(text, sizeof text, "0x%llx", value);
  return text;
}

}  // namespace pmapi
