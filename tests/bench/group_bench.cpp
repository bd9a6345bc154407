// SPDX-License-Identifier: MIT
// Counting groups: pm_get_data_mygroup with 8 member threads alive, against
// the same read done by hand on an inherited raw perf group whose 8 threads
// were started after it was opened: with the client's 4 events only, and
// with the same descriptors libpmapi opens (the group plus the fifth event
// that counts members, and the caller's own 4-event context beside it).
#include <benchmark/benchmark.h>
#include <stdio.h>

#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

#include "pmapi_fixture.h"
#include "raw_group.h"
#include "timed_reads.h"

namespace {

constexpr int kMembers = 8;

// Threads that stay alive (and so in the group) until destroyed.
class IdleThreads {
 public:
  explicit IdleThreads(int n) {
    for (int i = 0; i < n; ++i) {
      threads_.emplace_back([this] {
        std::unique_lock<std::mutex> lock(mutex_);
        cv_.wait(lock, [this] { return done_; });
      });
    }
  }
  ~IdleThreads() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      done_ = true;
    }
    cv_.notify_all();
    for (std::thread &thread : threads_) thread.join();
  }

 private:
  std::mutex mutex_;
  std::condition_variable cv_;
  bool done_ = false;
  std::vector<std::thread> threads_;
};

// The tracepoint libpmapi counts members with, or false without tracefs.
bool ForkTracepoint(RawEvent *event) {
  FILE *f = fopen("/sys/kernel/tracing/events/sched/sched_process_fork/id", "r");
  if (!f) return false;
  unsigned long long id = 0;
  const bool ok = fscanf(f, "%llu", &id) == 1;
  fclose(f);
  *event = {PERF_TYPE_TRACEPOINT, id};
  return ok;
}

void ReadInheritedByHand(benchmark::State &state, const std::vector<RawEvent> &events) {
  RawGroup group(events, 0, -1, /*inherit=*/true);
  if (!group.ok()) return state.SkipWithError("perf_event_open failed");
  group.Enable();
  IdleThreads members(kMembers);
  TimeGroupReads(state, group);
}

void BM_GroupRead_Raw(benchmark::State &state) { ReadInheritedByHand(state, FourSoftwareEvents()); }
BENCHMARK(BM_GroupRead_Raw);

void BM_GroupRead_RawSameDescriptors(benchmark::State &state) {
  RawGroup own(FourSoftwareEvents(), 0, -1);
  if (!own.ok()) return state.SkipWithError("perf_event_open failed");
  own.Enable();
  std::vector<RawEvent> events = FourSoftwareEvents();
  RawEvent forks;
  if (!ForkTracepoint(&forks)) return state.SkipWithError("no tracefs");
  events.push_back(forks);
  ReadInheritedByHand(state, events);
}
BENCHMARK(BM_GroupRead_RawSameDescriptors);

void BM_GroupRead_Pmapi(benchmark::State &state) {
  ScopedProgram program(state, kMyGroup, Counting(FourEventProgram()));
  if (!program.ok()) return;
  IdleThreads members(kMembers);  // started after the set, so in the group; gone before the delete
  TimeDataReads(state, pm_get_data_mygroup);
}
BENCHMARK(BM_GroupRead_Pmapi);

}  // namespace
