// SPDX-License-Identifier: MIT
#include "folded_stacks.h"

namespace tools {

void FoldedStacks::Add(const std::vector<std::string> &frames, uint64_t count) {
  if (frames.empty() || count == 0) return;
  std::string line;
  for (size_t i = 0; i < frames.size(); ++i) {
    if (i) line += ';';
    for (char c : frames[i]) line += c == ';' ? ':' : (c == '\n' || c == '\r') ? ' ' : c;
  }
  stacks_[line] += count;
  total_ += count;
}

std::string FoldedStacks::Text() const {
  std::string out;
  for (const auto &[stack, count] : stacks_) out += stack + " " + std::to_string(count) + "\n";
  return out;
}

}  // namespace tools
