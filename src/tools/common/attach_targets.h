/* SPDX-License-Identifier: MIT */
// -p and -t: the running processes and threads to count, found in /proc before anything is
// programmed, with the labels --per-thread prints ("comm-tid", as perf stat does).
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

#include "count_options.h"

namespace tools {

struct AttachTarget {
  pid_t pid = 0;               // the process
  pid_t tid = 0;               // the thread (the pid for a whole process)
  bool whole_process = false;  // -p without --per-thread: every thread, those to come too
  std::string label;           // "sleep-1234"
};

// Returns "" or what is wrong (no such process, a thread id given to -p), for a usage error.
std::string FindTargets(const Options &options, std::vector<AttachTarget> *targets);

}  // namespace tools
