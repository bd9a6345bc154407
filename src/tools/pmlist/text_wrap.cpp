// SPDX-License-Identifier: MIT
#include "text_wrap.h"

#include <stdlib.h>

namespace pmlist {

size_t WrapWidth(bool is_terminal, bool no_wrap, const char *columns, int terminal_columns) {
  if (!is_terminal || no_wrap) return 0;
  if (columns && *columns) {
    char *end = nullptr;
    const long value = strtol(columns, &end, 10);
    // A shell's COLUMNS is the terminal's; anything else (a word, 0, a million) is ignored.
    if (*end == '\0' && value >= 20 && value <= 10000) return static_cast<size_t>(value);
  }
  if (terminal_columns > 0) return static_cast<size_t>(terminal_columns);
  return 80;
}

std::vector<std::string> WrapText(const std::string &text, size_t width) {
  std::vector<std::string> lines;
  std::string line, word;
  auto place = [&] {
    if (word.empty()) return;
    if (!line.empty() && line.size() + 1 + word.size() > width) {
      lines.push_back(line);
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
    word.clear();
  };
  for (char c : text) {
    if (c == ' ' || c == '\t' || c == '\n') {
      place();
    } else {
      word += c;
    }
  }
  place();
  if (!line.empty()) lines.push_back(line);
  return lines;
}

}  // namespace pmlist
