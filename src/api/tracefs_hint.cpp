// SPDX-License-Identifier: MIT
#include "api/tracefs_hint.h"

#include <errno.h>
#include <unistd.h>

#include "base/kernel.h"

namespace pmapi {
namespace {

bool AllOf(const std::string &text, bool (*ok)(char)) {
  if (text.empty()) return false;
  for (char c : text) {
    if (!ok(c)) return false;
  }
  return true;
}

bool SubsystemChar(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'; }
bool EventChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

}  // namespace

bool LooksLikeTracepoint(const std::string &name) {
  const size_t colon = name.find(':');
  if (colon == std::string::npos || name.find(':', colon + 1) != std::string::npos) return false;
  return AllOf(name.substr(0, colon), SubsystemChar) && AllOf(name.substr(colon + 1), EventChar);
}

std::string TracefsUnreadable() {
  bool mounted = false;
  for (const char *root : kTracefsRoots) {
    const std::string events = std::string(root) + "/events";
    if (access(events.c_str(), R_OK | X_OK) == 0) return "";
    // EACCES: the directory (or tracefs itself, mode 0700) is there but closed to this user.
    if (errno == EACCES) mounted = true;
  }
  if (mounted) {
    return "tracepoints cannot be seen by this user: tracefs (" + std::string(kTracefsRoots[0]) +
           ") is readable by root only here; run as root, or have root give a group of yours "
           "read access: mount -o remount,gid=GROUP,mode=0750 " +
           kTracefsRoots[0] + " (" PMAPI_DOC_DIR "/tools.md)";
  }
  return "tracepoints cannot be seen: no tracefs is mounted at " + std::string(kTracefsRoots[0]) +
         " (mount -t tracefs nodev " + kTracefsRoots[0] + ")";
}

}  // namespace pmapi
