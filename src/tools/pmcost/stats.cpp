// SPDX-License-Identifier: MIT
#include "stats.h"

#include <algorithm>

namespace {

// Nearest-rank percentile of sorted data: the value at or below which
// `fraction` of the samples lie.
double Percentile(const std::vector<double> &sorted, double fraction) {
  size_t rank = static_cast<size_t>(fraction * static_cast<double>(sorted.size()) + 0.999999);
  if (rank < 1) rank = 1;
  if (rank > sorted.size()) rank = sorted.size();
  return sorted[rank - 1];
}

}  // namespace

Summary Summarize(std::vector<double> &ns) {
  Summary s;
  if (ns.empty()) return s;
  std::sort(ns.begin(), ns.end());
  s.min = ns.front();
  s.median = Percentile(ns, 0.5);
  s.p99 = Percentile(ns, 0.99);
  return s;
}
