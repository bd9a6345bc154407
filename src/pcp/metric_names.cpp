// SPDX-License-Identifier: MIT
// PCP metric names from event names (metric_names.h).
#include "metric_names.h"

#include <ctype.h>

namespace pmapi_pcp {

std::string MetricPart(const std::string &text) {
  std::string part;
  for (char c : text) {
    const bool keep = isalnum(static_cast<unsigned char>(c)) != 0;
    if (keep) {
      part += c;
    } else if (!part.empty() && part.back() != '_') {
      part += '_';
    }
  }
  while (!part.empty() && part.back() == '_') part.pop_back();
  if (part.empty() || !isalpha(static_cast<unsigned char>(part[0]))) part.insert(0, "e");
  return part;
}

std::string MetricLeaf(const std::string &name, Mode mode) {
  // Levels: a tracepoint's "subsystem:" and a PMU's "pmu/.../" each start one.
  std::string leaf;
  std::string level;
  for (char c : name) {
    if (c == ':' || c == '/') {
      if (!level.empty()) leaf += (leaf.empty() ? "" : ".") + MetricPart(level);
      level.clear();
    } else {
      level += c;
    }
  }
  if (!level.empty()) leaf += (leaf.empty() ? "" : ".") + MetricPart(level);
  if (leaf.empty()) leaf = "e";
  static const char *const kSuffix[] = {"", "_u", "_k", "_uk"};
  return leaf + kSuffix[static_cast<unsigned>(mode) & 3u];
}

}  // namespace pmapi_pcp
