// SPDX-License-Identifier: MIT
// libFuzzer target: the search rule of pmlist and pmcount -e (src/api/event_search.h). The
// input's first line is a search (words, wildcards), the other lines are event names. Nothing
// may crash or hang; a name matches itself as a pattern when it has no wildcard or escape;
// every correction offered for a pattern matches one of the names; the words a search splits
// into hold no blank, and the words of texts are lowercase and at least 3 characters long.
#include <ctype.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <string>
#include <vector>

#include "api/event_search.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 4096) return 0;  // thousands of names already; fnmatch is not what is tested
  const std::string input(reinterpret_cast<const char *>(data), size);
  std::vector<std::string> lines;
  size_t start = 0;
  while (start <= input.size()) {
    const size_t end = std::min(input.find('\n', start), input.size());
    lines.push_back(input.substr(start, end - start));
    start = end + 1;
  }
  const std::string search = lines[0];
  const std::vector<std::string> names(lines.begin() + 1, lines.end());
  const pmapi::EventQuery query(search);
  for (const std::string &word : query.words()) {
    if (word.empty() || word.find_first_of(" \t\n\v\f\r") != std::string::npos) abort();
    const std::string literal = pmapi::WithoutWildcards(word);
    if (literal.find_first_of("*?") != std::string::npos) abort();
    for (const std::string &corrected : pmapi::CorrectedPatterns(word, names, 4)) {
      bool matches = false;
      for (const std::string &name : names) {
        matches = matches || pmapi::NameMatchesPattern(corrected, name);
      }
      if (!matches) abort();
    }
  }
  for (const std::string &name : names) {
    (void)query.Matches(name, search, name);
    if (!name.empty() && !pmapi::HasWildcard(name) && name.find('\\') == std::string::npos &&
        !pmapi::NameMatchesPattern(name, name)) {
      abort();
    }
  }
  for (const std::string &word : pmapi::WordsOf(names)) {
    if (word.size() < 3) abort();
    for (char c : word) {
      if (isupper(static_cast<unsigned char>(c))) abort();
    }
  }
  return 0;
}
