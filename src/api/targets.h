/* SPDX-License-Identifier: MIT */
// Naming the threads a third-party or group call acts on: checking a
// (pid, tid, ptid) triple, finding a thread, and listing a process's threads.
#pragma once

#include <sys/types.h>

#include <vector>

#include "api/export.h"
#include "base/status.h"
#include "core/counter_group.h"

namespace pmapi {

// M:N pthread ids have no meaning on Linux (every pthread is a kernel
// thread): only tid selects the target; ptid must be 0 or accompany a tid.
Status CheckTarget(pid_t pid, tid_t tid, ptid_t ptid);

// Pmapi_NoSuchThread unless thread `tid` of process `pid` exists.
Status TargetExists(pid_t pid, tid_t tid);

// The counter target for one thread: "thread 12 of process 10".
GroupTarget ThreadTarget(pid_t pid, pid_t tid);

// Every thread of process `pid` now, the given one first; the others may exit
// before they are opened (GroupTarget::may_vanish).
Status ProcessThreads(pid_t pid, pid_t first_tid, std::vector<GroupTarget> *threads);

}  // namespace pmapi
