// SPDX-License-Identifier: MIT
// Multiplexed reads: pm_get_data_mythread_mx with 2 sets x 4 software events (the library's
// rotator switching them every 10 ms), against two raw group reads by hand (the kernel work
// the call cannot avoid). The libpmapi side includes the malloc of accu_set that AIX's
// interface requires and the caller's free().
#include <benchmark/benchmark.h>
#include <stdlib.h>

#include "pmapi_fixture.h"
#include "raw_group.h"

namespace {

void BM_MxRead_RawTwoGroups(benchmark::State &state) {
  RawGroup first(FourSoftwareEvents(), 0, -1);
  RawGroup second(FourSoftwareEvents(), 0, -1);
  if (!first.ok() || !second.ok()) return state.SkipWithError("perf_event_open failed");
  first.Enable();
  uint64_t buffer[16];
  for (auto _ : state) {
    first.Read(buffer, first.read_words());
    second.Read(buffer, second.read_words());
    benchmark::DoNotOptimize(buffer);
  }
}
BENCHMARK(BM_MxRead_RawTwoGroups);

void BM_MxRead_Pmapi(benchmark::State &state) {
  pm_prog_t four = FourEventProgram();
  pm_events_prog_t sets[2];
  for (auto &set : sets) {
    for (int i = 0; i < MAX_COUNTERS; ++i) set[i] = four.events[i];
  }
  pm_prog_mx_t prog = {};
  prog.mode.w = four.mode.w | PM_COUNT;
  prog.slice_duration = 10;
  prog.nb_events_prog = 2;
  prog.events_set = sets;
  if (pm_set_program_mythread_mx(&prog) != 0) return state.SkipWithError("pm_set_program_mx");
  pm_data_mx_t data;
  for (auto _ : state) {
    pm_get_data_mythread_mx(&data);
    benchmark::DoNotOptimize(data);
    free(data.accu_set);
  }
  pm_delete_program_mythread();
}
BENCHMARK(BM_MxRead_Pmapi);

}  // namespace
