// pmu_loop N [T]: runs the suite's loop N times (2N user-mode instructions) and exits: a command
// with a known instruction count for the tools (pmcount, pmsample, cpuperf) to count in the
// guest. With T, T threads run it N times each while the main thread waits for them: the
// per-thread counts of a sampler.
#include <stdlib.h>

#include <thread>
#include <vector>

#include "guest_support.h"

int main(int argc, char **argv) {
  const unsigned long long n = argc > 1 ? strtoull(argv[1], nullptr, 10) : 0;
  const unsigned long threads = argc > 2 ? strtoul(argv[2], nullptr, 10) : 0;
  if (n == 0) return 0;
  if (threads == 0) {
    pmu_guest::Loop(n);
    return 0;
  }
  std::vector<std::thread> workers;
  for (unsigned long i = 0; i < threads; ++i) workers.emplace_back([n] { pmu_guest::Loop(n); });
  for (std::thread &worker : workers) worker.join();
  return 0;
}
