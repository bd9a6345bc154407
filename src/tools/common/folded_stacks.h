/* SPDX-License-Identifier: MIT */
// Stacks in the "folded" form that flame graph tools read: one line per distinct stack, its
// frames from the outermost (root) to the innermost joined by ';', a space and its count:
//   sampler_workload;main;hot_loop_a 2991
// Pure: the sampler turns its samples into FoldedStacks, these turn them into text or a tree.
#pragma once

#include <stdint.h>

#include <map>
#include <string>
#include <vector>

namespace tools {

class FoldedStacks {
 public:
  // Adds `count` samples of the stack `frames`, outermost first. A ';' in a name (it would
  // split the frame) becomes ':', and a line break a space, so every line reads back whole.
  void Add(const std::vector<std::string> &frames, uint64_t count);

  // The lines, sorted by stack, identical stacks merged: what flamegraph tools take.
  std::string Text() const;

  // Each stack (frames joined by ';') and its count, sorted.
  const std::map<std::string, uint64_t> &stacks() const { return stacks_; }
  uint64_t total() const { return total_; }

 private:
  std::map<std::string, uint64_t> stacks_;
  uint64_t total_ = 0;
};

}  // namespace tools
