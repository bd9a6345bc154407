// SPDX-License-Identifier: MIT
#include "core/session_target.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "base/kernel.h"
#include "core/thread_map.h"

namespace pmapi {
namespace {

Status NoSuch(const char *what, pid_t pid, int err) {
  return Status(Pmapi_NoSuchThread,
                {"no ", what, " ", Decimal(static_cast<unsigned long long>(pid)).c_str(), " (",
                 strerror(err), "): it exited, or was never started"});
}

}  // namespace

Status PlacesOf(const SessionTarget &target, std::vector<SessionPlace> *places) {
  places->clear();
  switch (target.kind) {
    case SessionTarget::Kind::kThread: {
      SessionPlace place;
      place.target.pid = target.pid ? target.pid : static_cast<pid_t>(syscall(SYS_gettid));
      place.target.description =
          target.pid ? "thread " + std::to_string(target.pid) : "the calling thread";
      places->push_back(std::move(place));
      return Status::Ok();
    }
    case SessionTarget::Kind::kProcess: {
      std::vector<pid_t> tids;
      const int rc = ListThreads(target.pid, &tids);
      if (rc < 0 || tids.empty()) return NoSuch("process", target.pid, rc < 0 ? -rc : ESRCH);
      for (pid_t tid : tids) {
        SessionPlace place;
        place.target.pid = tid;
        place.target.inherit = true;
        place.target.may_vanish = tid != target.pid;
        place.target.description =
            "thread " + std::to_string(tid) + " of process " + std::to_string(target.pid);
        places->push_back(std::move(place));
      }
      return Status::Ok();
    }
    case SessionTarget::Kind::kCpus:
    case SessionTarget::Kind::kCgroup: {
      if (target.kind == SessionTarget::Kind::kCgroup) {
        FileStat info;
        const int rc = CurrentKernel().Stat(target.cgroup, &info);
        if (rc < 0 || !S_ISDIR(info.mode)) {
          return Status(Pmapi_InvalidArg,
                        {"cgroup '", target.cgroup.c_str(), "' ", rc < 0 ? "cannot be read: " : "",
                         rc < 0 ? strerror(-rc) : "is not a directory",
                         ": name a cgroup v2 directory, such as /sys/fs/cgroup/NAME"});
        }
      }
      for (size_t i = 0; i < target.linux_cpus.size(); ++i) {
        SessionPlace place;
        place.target.pid = -1;
        place.target.cpu = target.linux_cpus[i];
        place.target.cgroup = target.cgroup;
        place.target.description =
            (target.cgroup.empty() ? "" : "cgroup " + target.cgroup + " on ") + "CPU " +
            std::to_string(target.linux_cpus[i]);
        place.dense_cpu = target.dense_cpus[i];
        places->push_back(std::move(place));
      }
      return Status::Ok();
    }
  }
  return Status(Pmapi_InvalidArg, "unknown target kind");
}

}  // namespace pmapi
