// SPDX-License-Identifier: MIT
#include "timed_reads.h"

#include <stdint.h>

#include "papi_set.h"

void TimeGroupReads(benchmark::State &state, const RawGroup &group) {
  uint64_t buffer[16];
  for (auto _ : state) {
    group.Read(buffer, group.read_words());
    benchmark::DoNotOptimize(buffer);
  }
}

void TimeRawReads(benchmark::State &state, const std::vector<RawEvent> &events) {
  RawGroup group(events, 0, -1);
  if (!group.ok()) return state.SkipWithError("perf_event_open failed");
  group.Enable();
  TimeGroupReads(state, group);
}

void TimeDataReads(benchmark::State &state, int (*read)(pm_data_t *)) {
  pm_data_t data;
  for (auto _ : state) {
    read(&data);
    benchmark::DoNotOptimize(data);
  }
}

void TimePmapiReads(benchmark::State &state, const PmapiScope &scope, pm_prog_t prog) {
  ScopedProgram program(state, scope, Counting(prog));
  if (program.ok()) TimeDataReads(state, scope.read);
}

void TimePapiReads(benchmark::State &state, const std::vector<std::string> &names) {
  PapiSet papi(names);
  if (!papi.ok || PAPI_start(papi.set) != PAPI_OK) return state.SkipWithError(papi.Why());
  long long values[8];
  for (auto _ : state) {
    PAPI_read(papi.set, values);
    benchmark::DoNotOptimize(values);
  }
}
