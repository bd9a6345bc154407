// SPDX-License-Identifier: MIT
#include "count_mode.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <fstream>

#include "base/kernel.h"

namespace tools {
namespace {

constexpr int kCapSysAdmin = 21, kCapPerfmon = 38;

bool HasCapability(int capability) {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.compare(0, 7, "CapEff:") != 0) continue;
    const unsigned long long bits = strtoull(line.c_str() + 7, nullptr, 16);
    return (bits >> capability) & 1;
  }
  return false;
}

int Paranoid() {
  char level[16];
  pmapi::ReadPerfEventParanoid(level, sizeof level);
  // The kernel's default when the file cannot be read.
  return strcmp(level, "unknown") == 0 ? 2 : atoi(level);
}

}  // namespace

std::string ModeName(const Mode &mode) {
  if (mode.user && mode.kernel) return "user+kernel";
  return mode.user ? "user" : "kernel";
}

std::string ChooseMode(const Options &options, const Selection &selection, Mode *mode,
                       std::vector<std::string> *notes, bool *per_event) {
  const bool chosen = options.user || options.kernel;
  Mode global;
  if (chosen) {
    global.user = options.user;
    global.kernel = options.kernel;
  }
  if (per_event) *per_event = false;
  bool first = true;
  bool any_explicit = chosen;
  Mode common = global;
  for (const SelectedEvent &event : selection.events) {
    Mode own = global;
    if (event.has_mode) {
      own.user = event.user;
      own.kernel = event.kernel;
      any_explicit = true;
    }
    if (first) {
      common = own;
      first = false;
    } else if (own.user != common.user || own.kernel != common.kernel) {
      if (per_event) {
        *per_event = true;
        continue;
      }
      return "events ask for different modes (" + ModeName(common) + " and " + ModeName(own) +
             " for " + event.name + "); one pmapi program counts all its events in one mode";
    }
  }
  if (!any_explicit) {
    // perf_event_paranoid 2 (the usual default) lets an unprivileged user count user mode only.
    const bool privileged =
        geteuid() == 0 || HasCapability(kCapPerfmon) || HasCapability(kCapSysAdmin);
    const int paranoid = Paranoid();
    if (!privileged && paranoid > 1) {
      common.user = true;
      common.kernel = false;
      notes->push_back("counting user mode only: kernel.perf_event_paranoid is " +
                       std::to_string(paranoid) +
                       " and pmcount runs without root or CAP_PERFMON (-k needs them)");
    }
  }
  *mode = per_event && *per_event ? global : common;
  return "";
}

}  // namespace tools
