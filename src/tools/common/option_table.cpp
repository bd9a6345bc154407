// SPDX-License-Identifier: MIT
#include "option_table.h"

#include <getopt.h>
#include <string.h>

namespace tools {
namespace {

// getopt_long's value for the long names of row i; short letters return themselves.
constexpr int kLongBase = 256;

std::vector<std::string> LongNames(const Option &row) {
  std::vector<std::string> names;
  std::string text = row.long_names ? row.long_names : "";
  size_t start = 0;
  while (start < text.size()) {
    const size_t bar = std::min(text.find('|', start), text.size());
    if (bar > start) names.push_back(text.substr(start, bar - start));
    start = bar + 1;
  }
  return names;
}

// "--event" from "--event=x" or "--event": a long option as the user wrote it, value aside.
std::string LongSpelled(const char *arg) {
  const char *equals = strchr(arg, '=');
  return equals ? std::string(arg, static_cast<size_t>(equals - arg)) : std::string(arg);
}

std::string Quoted(const std::string &text) { return "'" + text + "'"; }

// Whether getopt gives the row a value (an optional one, value_if, it does not).
bool TakesValue(const Option &row) { return row.argument && !row.value_if; }

}  // namespace

Option Text(const char *line) {
  Option row;
  row.help = line;
  row.text_only = true;
  return row;
}

bool ParseWholeNumber(const std::string &text, long long low, long long high, long long *out) {
  if (text.empty() || text.size() > 18) return false;  // 18 digits cannot overflow
  long long value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
    value = value * 10 + (c - '0');
  }
  if (value < low || value > high) return false;
  *out = value;
  return true;
}

OptionHandler WholeNumber(const std::string &what, long long low, long long high,
                          std::function<void(long long)> apply) {
  return [what, low, high, apply](const std::string &value,
                                  const std::string &spelled) -> std::string {
    long long number = 0;
    if (!ParseWholeNumber(value, low, high, &number)) {
      return "bad " + what + " " + Quoted(value) + " for " + spelled +
             ": give a whole number from " + std::to_string(low) + " to " + std::to_string(high);
    }
    apply(number);
    return "";
  };
}

OptionTable::OptionTable(std::vector<Option> rows, size_t help_column)
    : rows_(std::move(rows)), help_column_(help_column) {}

const Option *OptionTable::FindShort(char c) const {
  for (const Option &row : rows_) {
    if (!row.text_only && row.short_name == c) return &row;
  }
  return nullptr;
}

OptionError OptionTable::Parse(const std::vector<std::string> &args, std::vector<std::string> *rest,
                               Operands operands, const OptionHandler &on_operand) const {
  // getopt_long wants a NUL-terminated, writable argv and the table in its own shape.
  std::vector<std::string> owned;
  owned.reserve(args.size() + 1);
  owned.push_back("option-table");
  owned.insert(owned.end(), args.begin(), args.end());
  std::vector<char *> argv;
  for (std::string &arg : owned) argv.push_back(&arg[0]);
  argv.push_back(nullptr);
  const int argc = static_cast<int>(owned.size());

  std::string letters = operands == Operands::kAnywhere ? "-:" : "+:";
  std::vector<std::string> names;  // kept alive while getopt reads them
  std::vector<int> row_of_long;
  for (size_t i = 0; i < rows_.size(); ++i) {
    const Option &row = rows_[i];
    if (row.text_only) continue;
    if (row.short_name) {
      letters += row.short_name;
      if (TakesValue(row)) letters += ':';
    }
    for (std::string &name : LongNames(row)) {
      names.push_back(std::move(name));
      row_of_long.push_back(static_cast<int>(i));
    }
  }
  std::vector<option> longs;
  for (size_t k = 0; k < names.size(); ++k) {
    const Option &row = rows_[static_cast<size_t>(row_of_long[k])];
    longs.push_back({names[k].c_str(), TakesValue(row) ? required_argument : no_argument, nullptr,
                     kLongBase + row_of_long[k]});
  }
  longs.push_back({nullptr, 0, nullptr, 0});

  OptionError error;
  auto fail = [&error](OptionError::Kind kind, const std::string &spelled,
                       const std::string &message) {
    error.kind = kind;
    error.spelled = spelled;
    error.message = message;
    return error;
  };
  optind = 0;  // glibc: start afresh (a table may parse more than once in a process)
  opterr = 0;  // the messages are ours (OptionError), not getopt's
  for (;;) {
    int long_index = -1;
    const int before = optind < 1 ? 1 : optind;  // optind 0 becomes 1 on the first call
    const int c = getopt_long(argc, argv.data(), letters.c_str(), longs.data(), &long_index);
    if (c == -1) break;
    const char *last = argv[static_cast<size_t>(optind - 1)];
    if (c == 1) {  // an operand, in Operands::kAnywhere
      const std::string message = on_operand ? on_operand(optarg, "") : "";
      if (!message.empty()) return fail(OptionError::kHandler, optarg, message);
      continue;
    }
    if (c == '?' || c == ':') {
      const bool is_long = optopt == 0 || optopt >= kLongBase;
      const std::string spelled = !is_long      ? std::string("-") + static_cast<char>(optopt)
                                  : optopt == 0 ? std::string(last)
                                                : LongSpelled(last);
      if (c == ':') {
        return fail(OptionError::kMissingValue, spelled, "option " + spelled + " needs a value");
      }
      if (optopt == 0 || !is_long) {
        return fail(OptionError::kUnknown, spelled, "unknown option " + Quoted(spelled));
      }
      return fail(OptionError::kUnexpectedValue, spelled, "option " + spelled + " takes no value");
    }
    const Option *row = nullptr;
    std::string spelled;
    if (c >= kLongBase) {
      row = &rows_[static_cast<size_t>(c - kLongBase)];
      spelled = "--" + names[static_cast<size_t>(long_index)];
    } else {
      row = FindShort(static_cast<char>(c));
      spelled = std::string("-") + static_cast<char>(c);
    }
    if (!row || !row->handler) continue;
    std::string value = optarg ? optarg : "";
    // An optional value comes from the next argument, when the option ended its own (getopt
    // moved on) and the row accepts what follows.
    if (row->value_if && optind > before && optind < argc && row->value_if(argv[optind])) {
      value = argv[optind++];
    }
    const std::string message = row->handler(value, spelled);
    if (!message.empty()) return fail(OptionError::kHandler, spelled, message);
  }
  if (rest) rest->assign(args.begin() + (optind - 1), args.end());
  return error;
}

std::string OptionTable::Help() const {
  std::string out;
  for (const Option &row : rows_) {
    if (row.text_only) {
      out += std::string(row.help) + "\n";
      continue;
    }
    if (!row.help) continue;
    std::string label = row.short_name ? std::string("-") + row.short_name : "  ";
    const std::vector<std::string> names = LongNames(row);
    for (const std::string &name : names) label += (label == "  " ? "  --" : ", --") + name;
    if (row.argument) label += (row.argument[0] == '=' ? "" : " ") + std::string(row.argument);
    std::string line = "  " + label;
    line += line.size() + 2 <= help_column_ ? std::string(help_column_ - line.size(), ' ') : "  ";
    for (const char *p = row.help; *p; ++p) {
      line += *p;
      if (*p == '\n') line += std::string(help_column_, ' ');
    }
    out += line + "\n";
  }
  return out;
}

}  // namespace tools
