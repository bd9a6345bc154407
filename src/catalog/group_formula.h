/* SPDX-License-Identifier: MIT */
// Derived-metric formulas of the groups/ tables ("IPC = PM_INST_CMPL / PM_CYC"): parsed once
// into a small stack program, evaluated from a group's counts and the elapsed time.
#pragma once

#include <string>
#include <vector>

namespace pmapi {

// The name a formula uses for the elapsed time in seconds.
constexpr const char *kFormulaTimeName = "time";

// How deep parentheses and unary minus signs may nest in a formula. The parser recurses once
// per level; a bound keeps a hostile table from overflowing the stack, and no real metric
// comes near it.
constexpr int kFormulaMaxDepth = 64;

class Formula {
 public:
  // Parses `text` (numbers, the names in `members`, `time`, + - * / and parentheses, unary
  // minus, nested at most kFormulaMaxDepth deep). Returns "" or what is wrong, with the
  // character position. A name is a letter or
  // '_' followed by letters, digits and "_:.-", so that task-clock and tracepoint names read
  // as one name; a minus after a name therefore needs a space before it ("a - b").
  static std::string Parse(const std::string &text, const std::vector<std::string> &members,
                           Formula *out);

  // The value given member counts (in `members` order) and the elapsed seconds. Division by
  // zero gives not-a-number rather than an infinity: "no cycles counted" has no ratio.
  double Evaluate(const std::vector<double> &member_values, double seconds) const;

 private:
  enum class Op { kNumber, kMember, kTime, kAdd, kSubtract, kMultiply, kDivide, kNegate };
  struct Step {
    Op op;
    double number;  // kNumber
    size_t member;  // kMember
  };
  class Parser;
  std::vector<Step> steps_;  // postfix order
};

}  // namespace pmapi
