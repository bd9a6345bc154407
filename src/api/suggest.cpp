// SPDX-License-Identifier: MIT
#include "api/suggest.h"

#include <ctype.h>

#include <algorithm>

namespace pmapi {

char FoldCase(char c) { return static_cast<char>(tolower(static_cast<unsigned char>(c))); }

bool ContainsFolded(const std::string &haystack, const std::string &needle) {
  auto match = std::search(haystack.begin(), haystack.end(), needle.begin(), needle.end(),
                           [](char a, char b) { return FoldCase(a) == FoldCase(b); });
  return match != haystack.end();
}

size_t EditDistance(const std::string &a, const std::string &b, size_t limit) {
  const size_t longer = std::max(a.size(), b.size()), shorter = std::min(a.size(), b.size());
  if (longer - shorter > limit) return limit + 1;
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    size_t best_in_row = row[0];
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t above = row[j];
      const size_t substitute = diagonal + (FoldCase(a[i - 1]) == FoldCase(b[j - 1]) ? 0 : 1);
      row[j] = std::min({above + 1, row[j - 1] + 1, substitute});
      diagonal = above;
      best_in_row = std::min(best_in_row, row[j]);
    }
    if (best_in_row > limit) return limit + 1;  // every path already costs more
  }
  return row[b.size()];
}

std::vector<size_t> ClosestIndices(const std::string &query,
                                   const std::vector<std::string> &candidates, size_t max_results) {
  if (query.empty() || max_results == 0) return {};
  const size_t limit = std::max<size_t>(2, query.size() / 3);
  struct Scored {
    size_t score;
    size_t order;
  };
  std::vector<Scored> scored;
  for (size_t i = 0; i < candidates.size(); ++i) {
    const size_t distance = EditDistance(query, candidates[i], limit);
    if (distance <= limit) {
      scored.push_back({distance, i});
    } else if (query.size() >= 3 && ContainsFolded(candidates[i], query)) {
      // After every typo match; shorter names (closer to the query) first.
      scored.push_back({limit + 1 + candidates[i].size() - query.size(), i});
    }
  }
  std::stable_sort(scored.begin(), scored.end(),
                   [](const Scored &x, const Scored &y) { return x.score < y.score; });
  std::vector<size_t> indexes;
  for (const Scored &s : scored) {
    if (indexes.size() == max_results) break;
    indexes.push_back(s.order);
  }
  return indexes;
}

std::vector<std::string> ClosestNames(const std::string &query,
                                      const std::vector<std::string> &candidates,
                                      size_t max_results) {
  std::vector<std::string> names;
  // Ask for everything in range, so that repeats do not crowd out distinct names.
  for (size_t index : ClosestIndices(query, candidates, candidates.size())) {
    if (names.size() == max_results) break;
    if (std::find(names.begin(), names.end(), candidates[index]) == names.end()) {
      names.push_back(candidates[index]);
    }
  }
  return names;
}

}  // namespace pmapi
