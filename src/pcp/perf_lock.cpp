// SPDX-License-Identifier: MIT
// PCP's perfevent lock file (perf_lock.h).
#include "perf_lock.h"

#include <fcntl.h>
#include <unistd.h>

namespace pmapi_pcp {

bool PerfLockHeld(const std::string &path) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  // Would a write lock on the whole file conflict? Only with a lock someone holds.
  struct flock probe = {};
  probe.l_type = F_WRLCK;
  probe.l_whence = SEEK_SET;
  const bool held = fcntl(fd, F_GETLK, &probe) == 0 && probe.l_type != F_UNLCK;
  close(fd);
  return held;
}

}  // namespace pmapi_pcp
