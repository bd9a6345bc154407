/* SPDX-License-Identifier: MIT */
// The threads of a process, as /proc/<pid>/task lists them through the kernel seam: the one
// place the library enumerates a process's threads (the process-level targets of src/api and
// compat/netbsd's counters both start here).
#pragma once

#include <sys/types.h>

#include <vector>

#include "base/engine_export.h"

namespace pmapi {

// Fills `tids` with the thread ids listed for `pid` (for the calling process, /proc/self: its
// own listing does not depend on /proc/<pid> being visible). Returns 0, or -errno of the
// listing: -ENOENT or -ESRCH when the process does not exist.
PMAPI_ENGINE_EXPORT int ListThreads(pid_t pid, std::vector<pid_t> *tids);

}  // namespace pmapi
