/* SPDX-License-Identifier: MIT */
// What a counting session counts on, as a value: a thread, a process and what it starts, a
// list of CPUs, or a cgroup on a list of CPUs; and the places (a task or a CPU, each one
// perf_event_open target) it stands for when the session opens.
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

#include "base/status.h"
#include "core/counter_group.h"

namespace pmapi {

struct SessionTarget {
  enum class Kind { kThread, kProcess, kCpus, kCgroup };
  Kind kind = Kind::kThread;
  pid_t pid = 0;  // kThread: a thread id (0: the thread that opens); kProcess: a process id
  // kCpus, kCgroup: the CPUs, by dense id and by Linux number, in the same order.
  std::vector<int> dense_cpus;
  std::vector<int> linux_cpus;
  std::string cgroup;  // kCgroup: the directory
};

// One perf_event_open target of a session target; `dense_cpu` is -1 for a task.
struct SessionPlace {
  GroupTarget target;
  int dense_cpu = -1;
};

// The places of `target` now: the thread; each thread of the process (inherited, so that what
// they start is counted too); each CPU; the cgroup on each CPU. Pmapi_NoSuchThread when the
// thread or process does not exist, Pmapi_InvalidArg when the cgroup is not a directory.
Status PlacesOf(const SessionTarget &target, std::vector<SessionPlace> *places);

}  // namespace pmapi
