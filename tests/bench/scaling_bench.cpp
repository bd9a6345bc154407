// SPDX-License-Identifier: MIT
// How cost grows: a read as the group grows from 1 to 8 events (with a raw
// and a PAPI twin per size), system-wide set+delete as events x CPUs grows
// (reported per descriptor), and _mythread reads in 1..16 threads at once.
#include <benchmark/benchmark.h>

#include <vector>

#include "pmapi_fixture.h"
#include "raw_group.h"
#include "timed_reads.h"

namespace {

void BM_ReadN_Raw(benchmark::State &state) {
  TimeRawReads(state, SoftwareEvents(static_cast<int>(state.range(0))));
}
BENCHMARK(BM_ReadN_Raw)->DenseRange(1, 8);

void BM_ReadN_Pmapi(benchmark::State &state) {
  TimePmapiReads(state, kMyThread, ProgramWithEvents(static_cast<int>(state.range(0))));
}
BENCHMARK(BM_ReadN_Pmapi)->DenseRange(1, 8);

void BM_ReadN_Papi(benchmark::State &state) {
  TimePapiReads(state, SoftwareEventPapiNames(static_cast<int>(state.range(0))));
}
BENCHMARK(BM_ReadN_Papi)->DenseRange(1, 8);

// Descriptors opened by one system-wide set: one per event per CPU. The
// "per_descriptor" counter is the iteration time divided by that number.
void CountPerDescriptor(benchmark::State &state, int events) {
  const double descriptors = static_cast<double>(events) * OnlineCpus();
  state.counters["descriptors"] = descriptors;
  state.counters["per_descriptor"] = benchmark::Counter(
      descriptors, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

void BM_SystemSetDelete_Raw(benchmark::State &state) {
  const int n = static_cast<int>(state.range(0));
  const std::vector<RawEvent> events = SoftwareEvents(n);
  for (auto _ : state) {
    if (OpenOnEveryCpu(events).empty()) return state.SkipWithError("system-wide open needs root");
  }
  CountPerDescriptor(state, n);
}
BENCHMARK(BM_SystemSetDelete_Raw)->Arg(1)->Arg(2)->Arg(4)->Arg(8);

void BM_SystemSetDelete_Pmapi(benchmark::State &state) {
  const int n = static_cast<int>(state.range(0));
  pm_prog_t prog = ProgramWithEvents(n);
  for (auto _ : state) {
    if (pm_set_program(&prog) != 0) return state.SkipWithError("pm_set_program needs root");
    pm_delete_program();
  }
  CountPerDescriptor(state, n);
}
BENCHMARK(BM_SystemSetDelete_Pmapi)->Arg(1)->Arg(2)->Arg(4)->Arg(8);

// Every thread reads its own four-event group: per-thread contexts share no
// lock, so the time per read should stay flat until threads outnumber CPUs.
void BM_ThreadRead_Raw(benchmark::State &state) { TimeRawReads(state, FourSoftwareEvents()); }
BENCHMARK(BM_ThreadRead_Raw)->ThreadRange(1, 16)->UseRealTime();

void BM_ThreadRead_Pmapi(benchmark::State &state) {
  TimePmapiReads(state, kMyThread, FourEventProgram());
}
BENCHMARK(BM_ThreadRead_Pmapi)->ThreadRange(1, 16)->UseRealTime();

}  // namespace
