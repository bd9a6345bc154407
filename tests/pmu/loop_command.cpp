// SPDX-License-Identifier: MIT
// pmu_loop N [T]: runs the suite's loop N times (2N user-mode instructions) and exits: a command
// with a known instruction count for the tools (pmcount, pmsample, cpuperf) to count in the
// guest. With T, T threads run it N times each while the main thread waits for them: the
// per-thread counts of a sampler. POSIX threads, not std::thread, and no libpmapi: loading
// libpmapi and the C++ runtime costs 1.3 million user-mode instructions before main.
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#include "guest_support.h"

namespace {

void *LoopThread(void *n) {
  pmu_guest::Loop(*static_cast<const uint64_t *>(n));
  return nullptr;
}

}  // namespace

int main(int argc, char **argv) {
  uint64_t n = argc > 1 ? strtoull(argv[1], nullptr, 10) : 0;
  const unsigned long threads = argc > 2 ? strtoul(argv[2], nullptr, 10) : 0;
  if (n == 0) return 0;
  if (threads == 0) {
    pmu_guest::Loop(n);
    return 0;
  }
  constexpr unsigned long kMostThreads = 64;
  pthread_t started[kMostThreads];
  unsigned long count = 0;
  while (count < threads && count < kMostThreads &&
         pthread_create(&started[count], nullptr, LoopThread, &n) == 0) {
    ++count;
  }
  for (unsigned long i = 0; i < count; ++i) pthread_join(started[i], nullptr);
  return count == threads ? 0 : 1;
}
