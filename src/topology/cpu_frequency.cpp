// SPDX-License-Identifier: MIT
// Where Linux tells the nominal clock, best source first.
#include "topology/cpu_frequency.h"

#include <locale>
#include <sstream>
#include <string>

#include "base/kernel.h"

namespace pmapi {
namespace {

constexpr const char kMaxFreqPath[] = "/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq";
constexpr const char kCpuInfoPath[] = "/proc/cpuinfo";

// Parses a positive number followed only by whitespace. The classic locale
// keeps "2445.428" readable after a client calls setlocale(LC_ALL, "de_DE").
bool ParsePositive(const std::string &text, double *value) {
  std::istringstream in(text);
  in.imbue(std::locale::classic());
  double parsed = 0;
  if (!(in >> parsed) || !(parsed > 0)) return false;
  in >> std::ws;
  if (!in.eof()) return false;
  *value = parsed;
  return true;
}

double MaxFreqHz() {
  std::string text;
  double khz = 0;
  if (CurrentKernel().ReadFile(kMaxFreqPath, &text) < 0 || !ParsePositive(text, &khz)) return 0;
  return khz * 1e3;
}

double CpuInfoMhzHz() {
  std::string text;
  if (CurrentKernel().ReadFile(kCpuInfoPath, &text) < 0) return 0;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    // "cpu MHz\t\t: 2445.428"; other architectures' "cpu MHz dynamic" etc.
    // are not this line, so the key must be exactly "cpu MHz".
    size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string key = line.substr(0, colon);
    key.erase(key.find_last_not_of(" \t") + 1);
    if (key != "cpu MHz") continue;
    double mhz = 0;
    return ParsePositive(line.substr(colon + 1), &mhz) ? mhz * 1e6 : 0;
  }
  return 0;
}

}  // namespace

double NominalCpuHz() {
  if (double hz = MaxFreqHz(); hz > 0) return hz;
  return CpuInfoMhzHz();
}

}  // namespace pmapi
