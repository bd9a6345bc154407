// SPDX-License-Identifier: MIT
#include "attach_targets.h"

#include <dirent.h>
#include <stdlib.h>

#include <algorithm>
#include <fstream>

#include "printable.h"

namespace tools {
namespace {

// The process a thread belongs to (Tgid in /proc/TID/status), or -1 when there is no TID.
pid_t ProcessOf(pid_t tid) {
  std::ifstream status("/proc/" + std::to_string(tid) + "/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.compare(0, 5, "Tgid:") == 0) return static_cast<pid_t>(atol(line.c_str() + 5));
  }
  return -1;
}

std::string CommandName(pid_t pid, pid_t tid) {
  std::ifstream file("/proc/" + std::to_string(pid) + "/task/" + std::to_string(tid) + "/comm");
  std::string name;
  std::getline(file, name);
  return name.empty() ? "?" : name;
}

std::string Label(pid_t pid, pid_t tid) {
  // The name is the counted program's to set (prctl): printed as it is, it could drive the
  // terminal.
  return tools::Printable(CommandName(pid, tid)) + "-" + std::to_string(tid);
}

std::vector<pid_t> ThreadsOf(pid_t pid) {
  std::vector<pid_t> tids;
  DIR *dir = opendir(("/proc/" + std::to_string(pid) + "/task").c_str());
  if (!dir) return tids;
  while (const dirent *entry = readdir(dir)) {
    const long tid = atol(entry->d_name);
    if (tid > 0) tids.push_back(static_cast<pid_t>(tid));
  }
  closedir(dir);
  std::sort(tids.begin(), tids.end());
  return tids;
}

}  // namespace

std::string FindTargets(const Options &options, std::vector<AttachTarget> *targets) {
  targets->clear();
  for (int pid : options.pids) {
    const pid_t process = ProcessOf(pid);
    if (process < 0) return "no process " + std::to_string(pid) + " to count (-p): has it exited?";
    if (process != pid) {
      return std::to_string(pid) + " is a thread of process " + std::to_string(process) +
             ": give -p " + std::to_string(process) + ", or -t " + std::to_string(pid) +
             " for that thread alone";
    }
    if (options.per_thread) {
      for (pid_t tid : ThreadsOf(pid)) targets->push_back({pid, tid, false, Label(pid, tid)});
    } else {
      targets->push_back({pid, pid, true, Label(pid, pid)});
    }
  }
  for (int tid : options.tids) {
    const pid_t process = ProcessOf(tid);
    if (process < 0) return "no thread " + std::to_string(tid) + " to count (-t): has it exited?";
    targets->push_back({process, tid, false, Label(process, tid)});
  }
  for (size_t i = 0; i < targets->size(); ++i) {
    for (size_t j = 0; j < i; ++j) {
      const AttachTarget &a = (*targets)[i], &b = (*targets)[j];
      if (a.tid == b.tid || (b.whole_process && a.pid == b.pid)) {
        return "thread " + std::to_string(a.tid) + " is named twice (-p " + std::to_string(b.pid) +
               " counts every thread of its process)";
      }
    }
  }
  return "";
}

}  // namespace tools
