// SPDX-License-Identifier: MIT
#include "api/targets.h"

#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include <string>

#include "base/kernel.h"
#include "core/thread_map.h"

namespace pmapi {

Status CheckTarget(pid_t pid, tid_t tid, ptid_t ptid) {
  if (tid == 0 && ptid != 0) {
    return Status(Pmapi_Unsupported, "ptid " + std::to_string(ptid) +
                                         " without a tid: Linux has no M:N threads; pass the "
                                         "kernel thread id as tid");
  }
  if (pid <= 0 || tid <= 0) {
    return Status(Pmapi_InvalidArg, "pid " + std::to_string(pid) + " and tid " +
                                        std::to_string(tid) + " must both be positive");
  }
  return Status::Ok();
}

Status TargetExists(pid_t pid, tid_t tid) {
  std::string stat;
  const std::string path =
      "/proc/" + std::to_string(pid) + "/task/" + std::to_string(tid) + "/stat";
  const int rc = CurrentKernel().ReadFile(path, &stat);
  if (rc == -ENOENT || rc == -ESRCH) {
    return Status(Pmapi_NoSuchThread, "thread " + std::to_string(tid) + " of process " +
                                          std::to_string(pid) + " does not exist");
  }
  // Anything else (out of descriptors, say) says nothing about the thread: report it as it is.
  if (rc < 0) return StatusFromFileErrno(-rc, "cannot read " + path);
  return Status::Ok();
}

GroupTarget ThreadTarget(pid_t pid, pid_t tid) {
  GroupTarget target;
  target.pid = tid;
  target.description = "thread " + std::to_string(tid) + " of process " + std::to_string(pid);
  return target;
}

Status ProcessThreads(pid_t pid, pid_t first_tid, std::vector<GroupTarget> *threads) {
  std::vector<pid_t> tids;
  const int rc = ListThreads(pid, &tids);
  const bool self = pid == getpid();
  // The calling process exists: a missing listing of it is a /proc problem.
  if (!self && (rc == -ENOENT || rc == -ESRCH)) {
    return Status(Pmapi_NoSuchThread, "process " + std::to_string(pid) + " does not exist");
  }
  // Anything else (out of descriptors, say) says nothing about the process.
  if (rc < 0) {
    return StatusFromFileErrno(
        -rc, "cannot list the threads of " + (self ? std::string("this process (/proc/self/task)")
                                                   : "process " + std::to_string(pid) + " (/proc/" +
                                                         std::to_string(pid) + "/task)"));
  }
  threads->assign(1, ThreadTarget(pid, first_tid));
  for (pid_t tid : tids) {
    if (tid == first_tid) continue;
    threads->push_back(ThreadTarget(pid, tid));
    threads->back().may_vanish = true;
  }
  return Status::Ok();
}

}  // namespace pmapi
