/* SPDX-License-Identifier: MIT */
// What both third-party families (_thread/_pthread, _group/_pgroup) do before their own work:
// check the ids, then act under the third-party lock on the target's context, if any.
#pragma once

#include <sys/types.h>

#include <string>
#include <utility>

#include "api/context_ops.h"
#include "api/multiplex_ops.h"
#include "api/targets.h"
#include "base/last_error.h"
#include "core/registry.h"

namespace pmapi {

// Runs `op(registry, context)` as one third-party call (Registry::WithTarget) once (pid, tid,
// ptid) names a possible target; `context` is the target's, or null when it has none. Returns
// op's code, or the ids' failure, reported.
template <typename Op>
int WithThirdPartyTarget(pid_t pid, tid_t tid, ptid_t ptid, Op op) {
  Status status = CheckTarget(pid, tid, ptid);
  if (!status.ok()) return Report(status);
  Registry &registry = Registry::Get();
  return registry.WithTarget(pid, tid, [&](Context *context) { return op(registry, context); });
}

// Pmapi_ProgExists for a target that already has a context, naming the call that deletes it.
inline int AlreadyProgrammed(pid_t pid, tid_t tid, const char *delete_call) {
  return Report(Pmapi_ProgExists, "thread " + std::to_string(tid) + " of process " +
                                      std::to_string(pid) + " is already programmed; " +
                                      delete_call + " first");
}

}  // namespace pmapi
