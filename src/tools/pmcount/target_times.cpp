// SPDX-License-Identifier: MIT
#include "target_times.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <string>

namespace pmcount {
namespace {

// utime and stime, fields 14 and 15 of proc(5)'s stat, in clock ticks. The command name
// (field 2) may hold blanks and parentheses: the fields are counted after its last ')'.
bool ReadStat(const std::string &path, uint64_t *utime, uint64_t *stime) {
  FILE *file = fopen(path.c_str(), "re");
  if (!file) return false;
  char line[1024];
  const bool got = fgets(line, sizeof line, file) != nullptr;
  fclose(file);
  if (!got) return false;
  const char *end = strrchr(line, ')');
  if (!end) return false;
  unsigned long long user = 0, system = 0;
  // state ppid pgrp session tty_nr tpgid flags minflt cminflt majflt cmajflt utime stime
  if (sscanf(end + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &user, &system) !=
      2) {
    return false;
  }
  *utime = user;
  *stime = system;
  return true;
}

}  // namespace

bool ReadCpuTimes(const std::vector<AttachTarget> &targets, CpuTimes *times) {
  const long ticks = sysconf(_SC_CLK_TCK);
  if (ticks <= 0 || targets.empty()) return false;
  uint64_t user = 0, system = 0;
  for (const AttachTarget &target : targets) {
    const std::string path = target.whole_process
                                 ? "/proc/" + std::to_string(target.pid) + "/stat"
                                 : "/proc/" + std::to_string(target.pid) + "/task/" +
                                       std::to_string(target.tid) + "/stat";
    uint64_t u = 0, s = 0;
    if (!ReadStat(path, &u, &s)) return false;
    user += u;
    system += s;
  }
  const uint64_t ns_per_tick = 1000000000ull / static_cast<uint64_t>(ticks);
  times->user_ns = user * ns_per_tick;
  times->system_ns = system * ns_per_tick;
  return true;
}

}  // namespace pmcount
