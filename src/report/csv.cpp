// SPDX-License-Identifier: MIT
#include "csv.h"

namespace tools {

std::string CsvQuoted(const std::string &text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string CsvField(const std::string &text, char separator) {
  const char special[] = {separator, '"', '\n', '\r', '\0'};
  return text.find_first_of(special) == std::string::npos ? text : CsvQuoted(text);
}

std::vector<std::string> CsvSplit(const std::string &line, char separator) {
  std::vector<std::string> fields;
  size_t at = 0;
  while (true) {
    std::string field;
    if (at < line.size() && line[at] == '"') {
      // A quoted field: up to the quote not doubled; what follows it, up to the separator,
      // is kept as written (a writer's mistake is shown, not dropped).
      ++at;
      while (at < line.size()) {
        if (line[at] == '"') {
          if (at + 1 < line.size() && line[at + 1] == '"') {
            field += '"';
            at += 2;
            continue;
          }
          ++at;
          break;
        }
        field += line[at++];
      }
    }
    const size_t end = line.find(separator, at);
    field += line.substr(at, end == std::string::npos ? std::string::npos : end - at);
    fields.push_back(field);
    if (end == std::string::npos) return fields;
    at = end + 1;
  }
}

}  // namespace tools
