// SPDX-License-Identifier: MIT
// Setting and deleting a program with a tracepoint: libpmapi (which keeps an
// anchor per tracepoint, src/core/tracepoint_anchors.h) against opening and
// closing one tracepoint event by hand, alone (the kernel unregisters the
// probe at the close and waits for an RCU grace period) and with another
// event of the tracepoint held open (the floor an anchor reaches).
#include <benchmark/benchmark.h>
#include <linux/perf_event.h>
#include <pmapi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <string>

namespace {

// The tracefs id of `name` ("syscalls:sys_enter_getpgid"), or -1.
long long TracepointId(const char *name) {
  std::string path = std::string("/sys/kernel/tracing/events/") + name + "/id";
  path[path.find(':')] = '/';
  FILE *f = fopen(path.c_str(), "r");
  if (!f) return -1;
  long long id = -1;
  if (fscanf(f, "%lld", &id) != 1) id = -1;
  fclose(f);
  return id;
}

// The catalog id of `name`, or -1.
int EventIdByName(const char *name) {
  pm_info2_t info;
  if (pm_initialize(PM_VERIFIED | PM_UNVERIFIED | PM_CAVEAT, &info, nullptr, PM_CURRENT) != 0) {
    return -1;
  }
  for (int i = 0; i < info.maxevents[0]; ++i) {
    if (strcmp(info.list_events[0][i].short_name, name) == 0)
      return info.list_events[0][i].event_id;
  }
  return -1;
}

int OpenTracepoint(long long id) {
  perf_event_attr attr{};
  attr.size = sizeof attr;
  attr.type = PERF_TYPE_TRACEPOINT;
  attr.config = static_cast<uint64_t>(id);
  attr.disabled = 1;
  return static_cast<int>(syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC));
}

// A tracepoint this process's libpmapi never opens, so no anchor holds it.
constexpr const char kRawTracepoint[] = "syscalls:sys_enter_getpgid";

void BM_TracepointSetDelete_Raw(benchmark::State &state) {
  const long long id = TracepointId(kRawTracepoint);
  if (id < 0) return state.SkipWithError("no tracefs");
  for (auto _ : state) {
    const int fd = OpenTracepoint(id);
    if (fd < 0) return state.SkipWithError("perf_event_open");
    close(fd);
  }
}
BENCHMARK(BM_TracepointSetDelete_Raw)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_TracepointSetDelete_RawHeld(benchmark::State &state) {
  const long long id = TracepointId(kRawTracepoint);
  const int held = id < 0 ? -1 : OpenTracepoint(id);
  if (held < 0) return state.SkipWithError("no tracefs");
  for (auto _ : state) {
    const int fd = OpenTracepoint(id);
    if (fd < 0) return state.SkipWithError("perf_event_open");
    close(fd);
  }
  close(held);
}
BENCHMARK(BM_TracepointSetDelete_RawHeld)->UseRealTime();

void BM_TracepointSetDelete_Pmapi(benchmark::State &state) {
  const int id = EventIdByName("syscalls:sys_enter_getppid");
  if (id < 0) return state.SkipWithError("the catalog has no syscalls:sys_enter_getppid");
  pm_prog_t prog = {};
  for (int &event : prog.events) event = COUNT_NOTHING;
  prog.events[0] = id;
  prog.mode.w = PM_USER | PM_KERNEL;
  for (auto _ : state) {
    if (pm_set_program_mythread(&prog) != 0) return state.SkipWithError("pm_set_program_mythread");
    pm_delete_program_mythread();
  }
}
BENCHMARK(BM_TracepointSetDelete_Pmapi)->UseRealTime();

}  // namespace
