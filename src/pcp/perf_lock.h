// SPDX-License-Identifier: MIT
// PCP's perfevent lock file: a user who wants the counters for themself runs PCP's perfalloc,
// which holds a read lock on the file for as long as it runs; counting agents step aside then.
#ifndef PMAPI_PCP_PERF_LOCK_H
#define PMAPI_PCP_PERF_LOCK_H

#include <string>

namespace pmapi_pcp {

// Whether another process holds a lock on `path` (a file missing or unreadable: no).
bool PerfLockHeld(const std::string &path);

}  // namespace pmapi_pcp

#endif  // PMAPI_PCP_PERF_LOCK_H
