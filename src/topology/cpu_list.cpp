// SPDX-License-Identifier: MIT
// Parser for the kernel's CPU list format. Strict on purpose: a list we
// misread would silently count the wrong processors.
#include "topology/cpu_list.h"

#include <algorithm>
#include <cctype>
#include <utility>

#include "pmapi.h"

namespace pmapi {
namespace {

// Reads a decimal number at text[*pos]; false if there is none or it exceeds
// kMaxLinuxCpu.
bool ReadCpuNumber(const std::string &text, size_t *pos, int *number) {
  size_t start = *pos;
  long value = 0;
  while (*pos < text.size() && std::isdigit(static_cast<unsigned char>(text[*pos]))) {
    value = value * 10 + (text[*pos] - '0');
    if (value > kMaxLinuxCpu) return false;
    ++*pos;
  }
  if (*pos == start) return false;
  *number = static_cast<int>(value);
  return true;
}

Status BadList(const std::string &text, size_t pos) {
  return Status(Pmapi_KernelError, "cannot parse CPU list \"" + text.substr(0, text.find('\n')) +
                                       "\" at offset " + std::to_string(pos) +
                                       " (expected e.g. \"0-3,5\")");
}

}  // namespace

Status ParseCpuList(const std::string &text, std::vector<int> *cpus) {
  cpus->clear();
  std::vector<int> parsed;
  // sysfs files end in a newline; nothing else may trail.
  size_t end = text.size();
  if (end > 0 && text[end - 1] == '\n') --end;
  if (end == 0) return Status::Ok();

  size_t pos = 0;
  for (;;) {
    int first = 0;
    if (!ReadCpuNumber(text, &pos, &first)) return BadList(text, pos);
    int last = first;
    if (pos < end && text[pos] == '-') {
      ++pos;
      if (!ReadCpuNumber(text, &pos, &last) || last < first) {
        return BadList(text, pos);
      }
    }
    for (int cpu = first; cpu <= last; ++cpu) parsed.push_back(cpu);
    if (pos == end) break;
    if (text[pos] != ',') return BadList(text, pos);
    ++pos;
  }
  std::sort(parsed.begin(), parsed.end());
  parsed.erase(std::unique(parsed.begin(), parsed.end()), parsed.end());
  *cpus = std::move(parsed);
  return Status::Ok();
}

}  // namespace pmapi
