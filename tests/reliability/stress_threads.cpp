// SPDX-License-Identifier: MIT
// Stress: 64 threads, each programming its own _mythread context 1,000 times (set, start, an
// exact count, read, stop, delete), all at once. Every call must succeed and every count be
// exact; afterwards the process has the descriptors and (within a tolerance for malloc's caches)
// the resident memory it had before. Registered with the label "stress" by
// tests/reliability/CMakeLists.txt; docs/reliability.md has the last measured numbers.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <atomic>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "stress_process.h"
#include "support/counting.h"

using namespace pmapi_test;

namespace {

constexpr int kThreads = 64;

// PMAPI_STRESS_ROUNDS overrides the 1,000 rounds (scripts/sanitize lowers it: TSan and ASan
// make each round several times slower, and the point there is races, not volume).
int Rounds() {
  const char *text = getenv("PMAPI_STRESS_ROUNDS");
  return text && atoi(text) > 0 ? atoi(text) : 1000;
}

struct Failures {
  std::atomic<int> count{0};
  std::mutex mutex;
  std::string first;
  void Add(const std::string &what) {
    if (count++ == 0) {
      std::lock_guard<std::mutex> lock(mutex);
      first = what;
    }
  }
};

void Worker(int event, int rounds, Failures *failures) {
  pm_prog_t prog = MakeProgram({event}, PM_USER | PM_KERNEL);
  for (int round = 0; round < rounds; ++round) {
    int rc = pm_set_program_mythread(&prog);
    if (rc != 0) return failures->Add(pm_strerror("set", rc));
    if ((rc = pm_start_mythread()) != 0) failures->Add(pm_strerror("start", rc));
    CallGetppid(3);
    pm_data_t data;
    if ((rc = pm_get_data_mythread(&data)) != 0) failures->Add(pm_strerror("read", rc));
    if (rc == 0 && data.accu[0] != 3) {
      failures->Add("round " + std::to_string(round) + " counted " + std::to_string(data.accu[0]));
    }
    if ((rc = pm_stop_mythread()) != 0) failures->Add(pm_strerror("stop", rc));
    if ((rc = pm_delete_program_mythread()) != 0) failures->Add(pm_strerror("delete", rc));
  }
}

void RunThreads(int event, int rounds, Failures *failures) {
  std::vector<std::thread> threads;
  for (int i = 0; i < kThreads; ++i) threads.emplace_back(Worker, event, rounds, failures);
  for (std::thread &thread : threads) thread.join();
}

TEST(StressThreads, SixtyFourThreadsSetReadDeleteAThousandTimes) {
  if (!InitializeAll()) return;
  const int event = EventId(kGetppid);
  // A short warm-up first, so that the baseline includes what the first rounds allocate for
  // good (malloc arenas for 64 threads, libpfm4 and catalog caches).
  Failures warmup;
  RunThreads(event, 5, &warmup);
  ASSERT_EQ(warmup.count, 0) << warmup.first;
  const ProcessFootprint before = MeasureFootprint();

  const int rounds = Rounds();
  Failures failures;
  RunThreads(event, rounds, &failures);
  EXPECT_EQ(failures.count, 0) << "first failure: " << failures.first;

  const ProcessFootprint after = MeasureFootprint();
  printf(
      "stress_threads: %d threads x %d rounds; descriptors %d -> %d (perf %d -> %d); "
      "VmRSS %ld -> %ld KiB\n",
      kThreads, rounds, before.descriptors, after.descriptors, before.perf_descriptors,
      after.perf_descriptors, before.rss_kib, after.rss_kib);
  EXPECT_EQ(after.descriptors, before.descriptors);
  EXPECT_EQ(after.perf_descriptors, 0);
  ExpectRssBackAtBaseline(before, after, kRssToleranceKiB);
}

}  // namespace
