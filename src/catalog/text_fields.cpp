#include "catalog/text_fields.h"

namespace pmapi {

std::string Trim(const std::string &text) {
  const char *blanks = " \t\r";
  size_t begin = text.find_first_not_of(blanks);
  if (begin == std::string::npos) return "";
  size_t end = text.find_last_not_of(blanks);
  return text.substr(begin, end - begin + 1);
}

std::vector<std::string> Split(const std::string &text, char separator) {
  std::vector<std::string> parts;
  size_t start = 0;
  for (;;) {
    size_t end = text.find(separator, start);
    parts.push_back(Trim(text.substr(start, end - start)));
    if (end == std::string::npos) return parts;
    start = end + 1;
  }
}

}  // namespace pmapi
