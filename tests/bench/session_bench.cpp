// SPDX-License-Identifier: MIT
// Reading a counting session (pmapi_session.h) of N tracepoints, each on a descriptor of its
// own, against reading as many tracepoint events opened by hand, one read(2) per descriptor with
// the same read format, on the calling thread. Software events stand in where tracefs cannot be
// read.
#include <benchmark/benchmark.h>
#include <linux/perf_event.h>
#include <pmapi.h>
#include <pmapi_session.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <string>
#include <vector>

namespace {

constexpr uint64_t kReadFormat =
    PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;

bool Initialized() {
  static const bool ok = [] {
    pm_info2_t info;
    return pm_initialize(PM_VERIFIED | PM_UNVERIFIED | PM_CAVEAT, &info, nullptr, PM_CURRENT) == 0;
  }();
  return ok;
}

// A session of the first `n` syscall tracepoints (or `n` task-clock events), started.
pm_session_t *StartedSession(int n, std::vector<perf_event_attr> *attrs) {
  if (!Initialized()) return nullptr;
  pm_session_t *all = nullptr;
  if (pm_session_create(0, &all) != 0) return nullptr;
  std::string spec;
  if (pm_session_add_events(all, "syscalls:sys_enter_*", nullptr) == 0) {
    int count = 0;
    pm_session_nevents(all, &count);
    for (int i = 0; i < n && i < count; ++i) {
      pm_session_event_t info;
      pm_session_event_info(all, i, &info);
      spec += (spec.empty() ? "" : ",") + std::string(info.name);
    }
  }
  pm_session_destroy(all);
  if (spec.empty()) {
    for (int i = 0; i < n; ++i) spec += (i ? "," : "") + std::string("task-clock");
  }
  pm_session_t *session = nullptr;
  if (pm_session_create(0, &session) != 0) return nullptr;
  int added = 0;
  if (pm_session_add_events(session, spec.c_str(), &added) != 0 || added != n ||
      pm_session_start(session) != 0) {
    pm_session_destroy(session);
    return nullptr;
  }
  // The same events by hand: their tracefs ids, through the names.
  for (int i = 0; i < n; ++i) {
    pm_session_event_t info;
    pm_session_event_info(session, i, &info);
    perf_event_attr attr{};
    attr.size = sizeof attr;
    attr.type = PERF_TYPE_SOFTWARE;
    attr.config = PERF_COUNT_SW_TASK_CLOCK;
    if (info.kind == PM_SESSION_TRACEPOINT) {
      std::string path = std::string("/sys/kernel/tracing/events/") + info.name + "/id";
      path[path.find(':')] = '/';
      FILE *f = fopen(path.c_str(), "r");
      unsigned long long id = 0;
      if (!f || fscanf(f, "%llu", &id) != 1) {
        if (f) fclose(f);
        pm_session_destroy(session);
        return nullptr;
      }
      fclose(f);
      attr.type = PERF_TYPE_TRACEPOINT;
      attr.config = id;
    }
    attr.read_format = kReadFormat;
    attrs->push_back(attr);
  }
  return session;
}

// The sessions and the descriptors by hand, kept for the whole run: closing a tracepoint's last
// event waits for a kernel grace period (docs/performance.md), which repetitions would pay each
// time. Each is counting only while its own benchmark runs.
struct Prepared {
  pm_session_t *session = nullptr;
  std::vector<int> fds;
};

Prepared &PreparedFor(int n) {
  static std::vector<std::pair<int, Prepared>> all;
  for (auto &entry : all) {
    if (entry.first == n) return entry.second;
  }
  all.emplace_back(n, Prepared());
  Prepared &prepared = all.back().second;
  std::vector<perf_event_attr> attrs;
  prepared.session = StartedSession(n, &attrs);
  if (!prepared.session) return prepared;
  pm_session_stop(prepared.session);
  for (perf_event_attr attr : attrs) {
    attr.disabled = 1;
    const long fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
    if (fd < 0) break;
    prepared.fds.push_back(static_cast<int>(fd));
  }
  if (prepared.fds.size() != attrs.size()) {
    for (int fd : prepared.fds) close(fd);
    prepared.fds.clear();
  }
  return prepared;
}

void BM_SessionRead_Pmapi(benchmark::State &state) {
  const int n = static_cast<int>(state.range(0));
  Prepared &prepared = PreparedFor(n);
  if (!prepared.session || pm_session_start(prepared.session) != 0) {
    return state.SkipWithError("no session of that many events here");
  }
  std::vector<pm_session_count_t> counts(static_cast<size_t>(n));
  for (auto _ : state) {
    if (pm_session_read(prepared.session, counts.data(), n) != 0) {
      state.SkipWithError("pm_session_read failed");
      break;
    }
    benchmark::DoNotOptimize(counts.data());
  }
  pm_session_stop(prepared.session);
  state.counters["events"] = n;
}

void BM_SessionRead_Raw(benchmark::State &state) {
  const int n = static_cast<int>(state.range(0));
  Prepared &prepared = PreparedFor(n);
  if (prepared.fds.empty()) return state.SkipWithError("cannot open the events by hand");
  for (int fd : prepared.fds) ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
  uint64_t buffer[4];
  for (auto _ : state) {
    for (int fd : prepared.fds) benchmark::DoNotOptimize(read(fd, buffer, sizeof buffer));
  }
  for (int fd : prepared.fds) ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
  state.counters["events"] = n;
}

// A whole one-event session, as a with-block of the Python package makes it: create, add
// task-clock, start (which opens), stop, read, destroy. No target: set-up, shown for scale
// (docs/performance.md, "Python").
void BM_SessionLife_Pmapi(benchmark::State &state) {
  if (!Initialized()) return state.SkipWithError("pm_initialize failed");
  pm_session_count_t count;
  for (auto _ : state) {
    pm_session_t *session = nullptr;
    if (pm_session_create(0, &session) != 0 ||
        pm_session_add_events(session, "task-clock", nullptr) != 0 ||
        pm_session_start(session) != 0 || pm_session_stop(session) != 0 ||
        pm_session_read(session, &count, 1) != 0) {
      pm_session_destroy(session);
      state.SkipWithError("a task-clock session failed");
      break;
    }
    pm_session_destroy(session);
  }
}

BENCHMARK(BM_SessionLife_Pmapi);
BENCHMARK(BM_SessionRead_Pmapi)->Arg(1)->Arg(8)->Arg(64)->Arg(360);
BENCHMARK(BM_SessionRead_Raw)->Arg(1)->Arg(8)->Arg(64)->Arg(360);

}  // namespace
