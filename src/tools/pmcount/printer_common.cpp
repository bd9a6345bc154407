// SPDX-License-Identifier: MIT
// Helpers every printer shares.
#include "printer.h"

namespace pmcount {

namespace {

// An argument as a shell would need it typed: quoted when it holds anything but plain
// characters, so that `sh -c 'a | b'` reads back as one argument.
std::string ShellWord(const std::string &arg) {
  if (!arg.empty() &&
      arg.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                            "_-+=./:,@%") == std::string::npos) {
    return arg;
  }
  std::string quoted = "'";
  for (char c : arg) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

}  // namespace

std::string CommandLine(const Report &report) {
  std::string line;
  for (const std::string &arg : report.command) {
    if (!line.empty()) line += ' ';
    line += ShellWord(arg);
  }
  return line;
}

double PercentRunning(const Cell &cell) {
  // A set that never ran has run none of the time (perf prints 0.00 beside <not counted>).
  if (cell.state == CellState::kNotCounted) return 0.0;
  if (cell.enabled_ns == 0) return 100.0;
  return 100.0 * static_cast<double>(cell.running_ns) / static_cast<double>(cell.enabled_ns);
}

}  // namespace pmcount
