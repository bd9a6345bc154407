/* SPDX-License-Identifier: MIT */
// Running a command and keeping what it printed, optionally with a ping-pong
// partner on descriptors 3 and 4 (served by a thread of this process, so
// that a whole-process counter such as perf stat never counts the partner).
#pragma once

#include <string>
#include <vector>

struct Output {
  int status = -1;  // exit status, or -1 if it did not exit normally
  std::string out;
  std::string err;
};

Output Spawn(const std::vector<std::string> &argv, bool with_partner);
