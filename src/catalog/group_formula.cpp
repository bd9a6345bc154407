// SPDX-License-Identifier: MIT
// A recursive-descent parser emitting postfix steps, and a stack evaluator.
#include "catalog/group_formula.h"

#include <ctype.h>
#include <stdlib.h>

#include <cmath>
#include <limits>

namespace pmapi {
namespace {

bool StartsName(char c) { return isalpha(static_cast<unsigned char>(c)) || c == '_'; }

bool ContinuesName(char c) {
  return isalnum(static_cast<unsigned char>(c)) || c == '_' || c == ':' || c == '.' || c == '-';
}

}  // namespace

// expression := term (('+' | '-') term)*
// term       := unary (('*' | '/') unary)*
// unary      := '-' unary | primary
// primary    := number | name | '(' expression ')'
class Formula::Parser {
 public:
  Parser(const std::string &text, const std::vector<std::string> &members, Formula *out)
      : text_(text), members_(members), out_(out) {}

  std::string Run() {
    Expression();
    SkipBlanks();
    if (error_.empty() && position_ < text_.size()) Fail("unexpected '" + Rest() + "'");
    if (error_.empty() && out_->steps_.empty()) Fail("empty formula");
    return error_;
  }

 private:
  void Expression() {
    Term();
    for (;;) {
      char c = Peek();
      if (c != '+' && c != '-') return;
      ++position_;
      Term();
      Emit(c == '+' ? Op::kAdd : Op::kSubtract);
    }
  }

  void Term() {
    Unary();
    for (;;) {
      char c = Peek();
      if (c != '*' && c != '/') return;
      ++position_;
      Unary();
      Emit(c == '*' ? Op::kMultiply : Op::kDivide);
    }
  }

  // Unary minus and parentheses are the two ways to recurse: each counts one level, so that a
  // formula of 200,000 '(' is refused long before it could exhaust the stack.
  void Unary() {
    if (Peek() == '-') {
      ++position_;
      if (!Deeper()) return;
      Unary();
      --depth_;
      Emit(Op::kNegate);
      return;
    }
    Primary();
  }

  void Primary() {
    if (!error_.empty()) return;
    char c = Peek();
    if (c == '(') {
      ++position_;
      if (!Deeper()) return;
      Expression();
      --depth_;
      if (Peek() != ')') return Fail("missing ')'");
      ++position_;
    } else if (isdigit(static_cast<unsigned char>(c)) || c == '.') {
      const char *start = text_.c_str() + position_;
      char *end = nullptr;
      double value = strtod(start, &end);
      if (end == start) return Fail("bad number");
      position_ += static_cast<size_t>(end - start);
      out_->steps_.push_back(Step{Op::kNumber, value, 0});
    } else if (StartsName(c)) {
      size_t start = position_;
      while (position_ < text_.size() && ContinuesName(text_[position_])) ++position_;
      Name(text_.substr(start, position_ - start), start);
    } else if (c == '\0') {
      Fail("formula ends where a number, name or '(' is expected");
    } else {
      Fail("unexpected '" + Rest() + "'");
    }
  }

  void Name(const std::string &name, size_t start) {
    if (name == kFormulaTimeName) {
      out_->steps_.push_back(Step{Op::kTime, 0, 0});
      return;
    }
    for (size_t i = 0; i < members_.size(); ++i) {
      if (members_[i] == name) {
        out_->steps_.push_back(Step{Op::kMember, 0, i});
        return;
      }
    }
    position_ = start;
    Fail("'" + name + "' is neither a member of the group nor 'time' (a minus after a name " +
         "needs a space before it)");
  }

  bool Deeper() {
    if (++depth_ <= kFormulaMaxDepth) return true;
    --position_;  // point at the '(' or '-' one level too deep
    Fail("nested more than " + std::to_string(kFormulaMaxDepth) +
         " deep (parentheses and unary minus signs)");
    return false;
  }
  char Peek() {
    SkipBlanks();
    return position_ < text_.size() ? text_[position_] : '\0';
  }
  void SkipBlanks() {
    while (position_ < text_.size() && (text_[position_] == ' ' || text_[position_] == '\t')) {
      ++position_;
    }
  }
  std::string Rest() const { return text_.substr(position_, 12); }
  void Emit(Op op) { out_->steps_.push_back(Step{op, 0, 0}); }
  void Fail(const std::string &what) {
    if (error_.empty()) error_ = "at character " + std::to_string(position_ + 1) + ": " + what;
    position_ = text_.size();  // stops every loop above
  }

  const std::string &text_;
  const std::vector<std::string> &members_;
  Formula *out_;
  size_t position_ = 0;
  int depth_ = 0;
  std::string error_;
};

std::string Formula::Parse(const std::string &text, const std::vector<std::string> &members,
                           Formula *out) {
  Formula parsed;
  std::string error = Parser(text, members, &parsed).Run();
  if (error.empty()) *out = std::move(parsed);
  return error;
}

double Formula::Evaluate(const std::vector<double> &member_values, double seconds) const {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  std::vector<double> stack;
  stack.reserve(steps_.size());
  for (const Step &step : steps_) {
    if (step.op == Op::kNumber) {
      stack.push_back(step.number);
      continue;
    }
    if (step.op == Op::kMember) {
      stack.push_back(step.member < member_values.size() ? member_values[step.member] : nan);
      continue;
    }
    if (step.op == Op::kTime) {
      stack.push_back(seconds);
      continue;
    }
    if (step.op == Op::kNegate) {
      stack.back() = -stack.back();
      continue;
    }
    double right = stack.back();
    stack.pop_back();
    double &left = stack.back();
    switch (step.op) {
      case Op::kAdd:
        left += right;
        break;
      case Op::kSubtract:
        left -= right;
        break;
      case Op::kMultiply:
        left *= right;
        break;
      case Op::kDivide:
        left = right == 0 ? nan : left / right;
        break;
      default:
        break;
    }
  }
  return stack.empty() ? nan : stack.back();
}

}  // namespace pmapi
