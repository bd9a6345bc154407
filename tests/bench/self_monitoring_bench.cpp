// SPDX-License-Identifier: MIT
// Self-monitoring: the same four software events on the calling thread,
// read / started+stopped / reset by hand, by libpmapi and by PAPI.
#include <benchmark/benchmark.h>

#include "papi_set.h"
#include "pmapi_fixture.h"
#include "raw_group.h"
#include "timed_reads.h"

namespace {

void BM_Read_Raw(benchmark::State &state) { TimeRawReads(state, FourSoftwareEvents()); }
BENCHMARK(BM_Read_Raw);

void BM_Read_Pmapi(benchmark::State &state) {
  TimePmapiReads(state, kMyThread, FourEventProgram());
}
BENCHMARK(BM_Read_Pmapi);

void BM_Read_Papi(benchmark::State &state) { TimePapiReads(state, FourSoftwareEventPapiNames()); }
BENCHMARK(BM_Read_Papi);

void BM_StartStop_Raw(benchmark::State &state) {
  RawGroup group(FourSoftwareEvents(), 0, -1);
  if (!group.ok()) return state.SkipWithError("perf_event_open failed");
  for (auto _ : state) {
    group.Enable();
    group.Disable();
  }
}
BENCHMARK(BM_StartStop_Raw);

void BM_StartStop_Pmapi(benchmark::State &state) {
  ScopedProgram program(state, kMyThread, FourEventProgram());  // set, not started
  if (!program.ok()) return;
  for (auto _ : state) {
    pm_start_mythread();
    pm_stop_mythread();
  }
}
BENCHMARK(BM_StartStop_Pmapi);

void BM_StartStop_Papi(benchmark::State &state) {
  PapiSet papi(FourSoftwareEventPapiNames());
  if (!papi.ok) return state.SkipWithError(papi.Why());
  long long values[4];
  for (auto _ : state) {
    PAPI_start(papi.set);
    PAPI_stop(papi.set, values);
  }
  PAPI_start(papi.set);  // the destructor stops it
}
BENCHMARK(BM_StartStop_Papi);

void BM_Reset_Raw(benchmark::State &state) {
  RawGroup group(FourSoftwareEvents(), 0, -1);
  if (!group.ok()) return state.SkipWithError("perf_event_open failed");
  group.Enable();
  for (auto _ : state) group.Reset();
}
BENCHMARK(BM_Reset_Raw);

void BM_Reset_Pmapi(benchmark::State &state) {
  ScopedProgram program(state, kMyThread, Counting(FourEventProgram()));
  if (!program.ok()) return;
  for (auto _ : state) pm_reset_data_mythread();
}
BENCHMARK(BM_Reset_Pmapi);

void BM_Reset_Papi(benchmark::State &state) {
  PapiSet papi(FourSoftwareEventPapiNames());
  if (!papi.ok || PAPI_start(papi.set) != PAPI_OK) return state.SkipWithError(papi.Why());
  for (auto _ : state) PAPI_reset(papi.set);
}
BENCHMARK(BM_Reset_Papi);

}  // namespace
