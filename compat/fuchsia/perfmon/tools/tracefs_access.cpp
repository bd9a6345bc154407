// SPDX-License-Identifier: MIT
#include "tracefs_access.h"

#include <errno.h>
#include <unistd.h>

namespace cpuperf {

std::string TracefsUnreadable() {
  static const char *const kRoots[] = {"/sys/kernel/tracing", "/sys/kernel/debug/tracing"};
  bool closed = false;
  for (const char *root : kRoots) {
    const std::string events = std::string(root) + "/events";
    if (access(events.c_str(), R_OK | X_OK) == 0) return "";
    if (errno == EACCES) closed = true;  // there, but tracefs (mode 0700) is root's
  }
  if (closed) {
    return std::string("tracepoints cannot be seen by this user: tracefs (") + kRoots[0] +
           ") is readable by root only here; run as root, or have root give this user read "
           "access to it";
  }
  return std::string("tracepoints cannot be seen: no tracefs is mounted at ") + kRoots[0] +
         " (mount -t tracefs nodev " + kRoots[0] + ")";
}

}  // namespace cpuperf
