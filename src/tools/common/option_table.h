/* SPDX-License-Identifier: MIT */
// Every tool's command line as one table: each option is one row (long name, short letter,
// argument name, help text, handler), parsed by getopt_long and listed by --help from the same
// rows, so that an option cannot be parsed without being documented or the other way round.
// No pmapi: the table is a pure function of the arguments, unit-tested and fuzzed alone.
//
// Adding an option is adding a row:
//   {"top", 0, "N", "how many functions to print (default 10)",
//    [&](const std::string &value, const std::string &spelled) { return ParseTop(value); }},
#pragma once

#include <stddef.h>

#include <functional>
#include <string>
#include <vector>

namespace tools {

// Applies one option: `value` is its argument ("" for a flag), `spelled` how the user named it
// ("-e", "--event"), for messages. Returns "" or what is wrong.
using OptionHandler =
    std::function<std::string(const std::string &value, const std::string &spelled)>;

struct Option {
  // "event"; aliases after '|' are accepted and listed beside it ("no-aggr|per-cpu"). Empty:
  // a short letter only.
  const char *long_names = "";
  char short_name = 0;             // 0: a long name only
  const char *argument = nullptr;  // the value's name in --help ("LIST"); nullptr: a flag
  // --help's text; '\n' starts a continuation line. nullptr: accepted but not listed (an old
  // spelling that the help of another row mentions).
  const char *help = nullptr;
  OptionHandler handler;
  // A row of --help text alone ("Targets:", ""), no option: see Text().
  bool text_only = false;
  // A flag (argument nullptr) whose value is optional and never attached: the next argument
  // is taken as its value when this says it is one (AIX's pmlist -g -1, -g GROUP beside -g
  // alone); `argument` then only names it in --help. nullptr: a flag takes no value.
  std::function<bool(const std::string &next)> value_if;
};

// A line of --help between options (a heading, or "" for a blank line).
Option Text(const char *line);

// A whole decimal number from `low` to `high` into *out: digits only (no sign, fraction,
// exponent, hex prefix or blank), at most 18 of them. False, *out untouched, for anything else.
bool ParseWholeNumber(const std::string &text, long long low, long long high, long long *out);

// A row's handler for a whole number from `low` to `high` (a count, an id, a size), given to
// `apply`. Anything else is refused with "bad WHAT 'TEXT' for -X: give a whole number from LOW
// to HIGH", so that 376.9, 1e-10 or 0x10 never become a number the user did not write.
OptionHandler WholeNumber(const std::string &what, long long low, long long high,
                          std::function<void(long long)> apply);

// Why parsing stopped. kHandler: a row's handler refused its value (message has its words).
struct OptionError {
  enum Kind { kNone, kUnknown, kMissingValue, kUnexpectedValue, kHandler };
  Kind kind = kNone;
  std::string spelled;  // "-Z", "--bogus=1" (unknown: as written), "--event", "-e"
  std::string message;  // a sentence: the handler's, or the table's own for the other kinds
  explicit operator bool() const { return kind != kNone; }
};

class OptionTable {
 public:
  // Where the options end: at the first operand (a command follows; "+" to getopt), or
  // anywhere, operands given to `on_operand` in order ("-" to getopt).
  enum class Operands { kEndOptions, kAnywhere };

  explicit OptionTable(std::vector<Option> rows, size_t help_column = 26);

  // Parses `args` (argv without argv[0]); the operands that follow the options (after "--"
  // too) go to *rest. With Operands::kAnywhere, operands before the end of the options go to
  // `on_operand`, which returns "" or what is wrong. getopt_long's rules: bundles (-uk),
  // attached values (-etask-clock, --event=x), "--", unique prefixes of long names.
  OptionError Parse(const std::vector<std::string> &args, std::vector<std::string> *rest,
                    Operands operands = Operands::kEndOptions,
                    const OptionHandler &on_operand = nullptr) const;

  // The listing for --help: one line per row, "  -e, --event LIST" with the help text at the
  // help column (or two spaces after a longer name), continuation lines aligned under it.
  std::string Help() const;

 private:
  const Option *FindShort(char c) const;
  std::vector<Option> rows_;
  size_t help_column_;
};

}  // namespace tools
