// SPDX-License-Identifier: MIT
#include "launcher_rank.h"

#include <errno.h>
#include <stdlib.h>

namespace tools {
namespace {

// A whole number from `low` to `high` in the variable `name`; false if it is unset, empty, or
// anything else.
bool Number(const char *name, int low, int high, int *out) {
  const char *text = name ? getenv(name) : nullptr;
  if (!text || !*text) return false;
  char *end = nullptr;
  errno = 0;
  const long value = strtol(text, &end, 10);
  if (errno || end == text || *end != '\0' || value < low || value > high) {
    return false;
  }
  *out = static_cast<int>(value);
  return true;
}

bool IsSet(const char *name) {
  const char *text = getenv(name);
  return text && *text;
}

}  // namespace

bool LauncherRank(int *rank, const Launcher **from) {
  for (const Launcher &launcher : kLaunchers) {
    if (!IsSet(launcher.rank)) continue;
    int value = 0;
    if (!Number(launcher.rank, 0, kMaxLauncherTasks - 1, &value)) return false;
    *rank = value;
    if (from) *from = &launcher;
    return true;
  }
  return false;
}

bool LauncherTask(int *rank, int *size, const Launcher **from) {
  for (const Launcher &launcher : kLaunchers) {
    int r = 0, s = 0;
    if (Number(launcher.rank, 0, kMaxLauncherTasks - 1, &r) &&
        Number(launcher.size, 1, kMaxLauncherTasks, &s) && r < s) {
      *rank = r;
      *size = s;
      if (from) *from = &launcher;
      return true;
    }
  }
  return false;
}

std::string LauncherVariables(bool sizes) {
  std::string list;
  size_t listed = 0, count = 0;
  for (const Launcher &launcher : kLaunchers) count += !sizes || launcher.size;
  for (const Launcher &launcher : kLaunchers) {
    if (sizes && !launcher.size) continue;
    if (listed) list += listed + 1 == count ? (sizes ? ", or " : " or ") : ", ";
    list += launcher.rank;
    if (sizes) list += std::string(" and ") + launcher.size;
    ++listed;
  }
  return list;
}

}  // namespace tools
