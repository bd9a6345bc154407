// SPDX-License-Identifier: MIT
#include "core/thread_map.h"

#include <stdlib.h>
#include <unistd.h>

#include <string>

#include "base/kernel.h"

namespace pmapi {

int ListThreads(pid_t pid, std::vector<pid_t> *tids) {
  const std::string path =
      pid == getpid() ? "/proc/self/task" : "/proc/" + std::to_string(pid) + "/task";
  std::vector<std::string> names;
  const int rc = CurrentKernel().ListDirectory(path, &names);
  if (rc < 0) return rc;
  tids->clear();
  for (const std::string &name : names) {
    char *end = nullptr;
    const long tid = strtol(name.c_str(), &end, 10);
    if (end != name.c_str() && *end == '\0' && tid > 0) tids->push_back(static_cast<pid_t>(tid));
  }
  return 0;
}

}  // namespace pmapi
