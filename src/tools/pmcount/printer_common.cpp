// Helpers every printer shares.
#include "printer.h"

namespace pmcount {

std::string CommandLine(const Report &report) {
  std::string line;
  for (const std::string &arg : report.command) {
    if (!line.empty()) line += ' ';
    line += arg;
  }
  return line;
}

double PercentRunning(const Cell &cell) {
  if (cell.enabled_ns == 0) return 100.0;
  return 100.0 * static_cast<double>(cell.running_ns) / static_cast<double>(cell.enabled_ns);
}

}  // namespace pmcount
