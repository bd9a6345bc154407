// SPDX-License-Identifier: MIT
// System-wide: one group per online CPU read by hand against pm_get_data
// and the pm_get_data_cpu loop. Needs root.
#include <benchmark/benchmark.h>

#include <stdint.h>

#include "pmapi_fixture.h"
#include "raw_group.h"
#include "timed_reads.h"

namespace {

void BM_SystemRead_Raw(benchmark::State &state) {
  const auto groups = OpenOnEveryCpu(FourSoftwareEvents());
  if (groups.empty()) return state.SkipWithError("system-wide open needs root");
  for (const auto &group : groups) group->Enable();
  uint64_t buffer[16];
  for (auto _ : state) {
    uint64_t sum = 0;
    for (const auto &group : groups) {
      group->Read(buffer, group->read_words());
      sum += buffer[3];
    }
    benchmark::DoNotOptimize(sum);
  }
}
BENCHMARK(BM_SystemRead_Raw);

void BM_SystemRead_Pmapi(benchmark::State &state) {
  TimePmapiReads(state, kSystemWide, FourEventProgram());
}
BENCHMARK(BM_SystemRead_Pmapi);

void BM_SystemCpuLoop_Pmapi(benchmark::State &state) {
  ScopedProgram program(state, kSystemWide, Counting(FourEventProgram()));
  if (!program.ok()) return;
  pm_data_t data;
  const int cpus = OnlineCpus();
  for (auto _ : state) {
    for (int cpu = 0; cpu < cpus; ++cpu) pm_get_data_cpu(cpu, &data);
    benchmark::DoNotOptimize(data);
  }
}
BENCHMARK(BM_SystemCpuLoop_Pmapi);

void BM_SetDelete_Raw(benchmark::State &state) {
  for (auto _ : state) {
    RawGroup group(FourSoftwareEvents(), 0, -1);
    benchmark::DoNotOptimize(group.ok());
  }
}
BENCHMARK(BM_SetDelete_Raw);

void BM_SetDelete_Pmapi(benchmark::State &state) {
  pm_prog_t prog = FourEventProgram();
  for (auto _ : state) {
    pm_set_program_mythread(&prog);
    pm_delete_program_mythread();
  }
}
BENCHMARK(BM_SetDelete_Pmapi);

}  // namespace
