// SPDX-License-Identifier: MIT
// The conversion of kernel samples into perfmon records, on one core: the work the drain thread
// does for every sample while a trace runs. Samples as the kernel writes them for a PC-collecting
// event, and for a timebase that reads two followers.
#include <benchmark/benchmark.h>
#include <linux/perf_event.h>
#include <string.h>

#include <memory>
#include <vector>

#include "sample_converter.h"
#include "trace_buffer.h"

namespace {

// A PERF_RECORD_SAMPLE for `slot`, with `values` {value, id} pairs when it reads a group.
std::vector<uint64_t> Sample(const perfmon::EventSlot &slot,
                             const std::vector<std::pair<uint64_t, uint64_t>> &values) {
  std::vector<uint64_t> words(1);           // the header, filled below
  words.push_back(slot.perf_id);            // IDENTIFIER
  words.push_back(0x401234);                // IP
  words.push_back(1234 | (1234ull << 32));  // pid, tid
  words.push_back(987654321);               // TIME
  if (slot.sample_type & PERF_SAMPLE_READ) {
    words.push_back(values.size());
    for (const auto &v : values) {
      words.push_back(v.first);
      words.push_back(v.second);
    }
  }
  perf_event_header header{PERF_RECORD_SAMPLE, 0, static_cast<uint16_t>(words.size() * 8)};
  memcpy(words.data(), &header, sizeof header);
  return words;
}

void Convert(benchmark::State &state, bool group) {
  perfmon::CpuEvents events;
  events.count = group ? 3 : 1;
  events.slots[0] = {11, 0x3001, PERFMON_FLAG_COLLECT_PC,
                     perfmon::kBaseSampleType | (group ? PERF_SAMPLE_READ : 0), 0};
  events.slots[1] = {12, 0x2802, 0, 0, 0};
  events.slots[2] = {13, 0x2801, 0, 0, 0};
  std::vector<uint64_t> sample = Sample(
      events.slots[0], group ? std::vector<std::pair<uint64_t, uint64_t>>{{1, 11}, {2, 12}, {3, 13}}
                             : std::vector<std::pair<uint64_t, uint64_t>>{});
  const perf_event_header *record = reinterpret_cast<const perf_event_header *>(sample.data());
  std::unique_ptr<perfmon::TraceBuffer> buffer;
  if (perfmon::TraceBuffer::Make(64 << 20, &buffer) != ZX_OK) {
    state.SkipWithError("no buffer");
    return;
  }
  int64_t converted = 0;
  for (auto _ : state) {
    for (int i = 0; i < 1000; ++i) {
      if (!perfmon::ConvertSample(record, &events, buffer.get())) {
        state.PauseTiming();
        buffer->Reset();
        state.ResumeTiming();
      }
    }
    converted += 1000;
  }
  // A sample is one group of records (TIME + PC [+ VALUEs]): the rate counts the records.
  state.counters["records/s"] = benchmark::Counter(static_cast<double>(converted * (group ? 4 : 2)),
                                                   benchmark::Counter::kIsRate);
  state.counters["samples/s"] =
      benchmark::Counter(static_cast<double>(converted), benchmark::Counter::kIsRate);
}

void BM_PerfmonConvertPcSample(benchmark::State &state) { Convert(state, false); }
void BM_PerfmonConvertTimebaseSample(benchmark::State &state) { Convert(state, true); }
BENCHMARK(BM_PerfmonConvertPcSample);
BENCHMARK(BM_PerfmonConvertTimebaseSample);

}  // namespace

BENCHMARK_MAIN();
