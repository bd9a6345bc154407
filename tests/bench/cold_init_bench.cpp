// SPDX-License-Identifier: MIT
// pm_initialize against PAPI_library_init, each in a freshly exec'd process
// (a forked one would inherit the parent's already-built catalog): the cost a
// short-lived tool or a job's first call pays. The child is this binary
// again, told by PMAPI_BENCH_COLD which library to initialize; it measures
// the call alone and writes the seconds to the pipe on descriptor 3: wall
// time (the benchmark's time) and the CPU time of all its threads (the
// counter cpu_ms, which says what the call costs when other work on a busy
// machine stretches the wall time).
//
// pm_initialize is measured twice: as every process but the first of a boot
// meets it, with the catalog cache filled (docs/catalog.md; one untimed child
// fills it first), and with PMAPI_NO_CACHE=1, building the catalog from its
// sources as the first process of a boot does. The cache-filled children run
// with XDG_RUNTIME_DIR set to a private directory this benchmark makes, so
// that the case means the same on every machine (with or without a login
// session), and the benchmark fails rather than measure the no-cache path
// should the file not be there.
//
// BM_ColdInit_KernelFloor measures what building the catalog from its
// sources cannot avoid, whatever the library's own code costs: reading the
// kernel's tracepoint list (available_events) and the first per-thread
// perf_event_open of the process (the status probes' first accepted event;
// the first such open on a quiet machine also makes the kernel enable a
// static key). It reports the two as read_ms and open_ms; compare their sum
// with BM_ColdInit_Papi and BM_ColdInit_PmapiNoCache (docs/performance.md,
// "Cold init on a quiet machine").
#include <benchmark/benchmark.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <papi.h>
#include <pmapi.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <string>

namespace {

// The cache-filled children's XDG_RUNTIME_DIR; made in main, removed on exit.
std::string g_cache_dir;

std::string CacheFile() {
  return g_cache_dir + "/libpmapi-catalog-" + std::to_string(geteuid()) + ".bin";
}

bool CacheFilled() {
  struct stat info;
  return stat(CacheFile().c_str(), &info) == 0 && S_ISREG(info.st_mode) && info.st_size > 0;
}

double Seconds(clockid_t clock) {
  timespec now;
  clock_gettime(clock, &now);
  return now.tv_sec + now.tv_nsec * 1e-9;
}

struct Times {
  double wall = -1;
  double cpu = -1;
  double parts[2] = {0, 0};  // the kernel floor's two steps
};

bool InitPmapi() {
  pm_info2_t info;
  pm_groups_info_t groups;
  return pm_initialize(PM_VERIFIED | PM_UNVERIFIED | PM_CAVEAT | PM_GET_GROUPS, &info, &groups,
                       PM_CURRENT) == 0;
}

bool InitPapi() { return PAPI_library_init(PAPI_VER_CURRENT) == PAPI_VER_CURRENT; }

// Reads the tracepoint list as the catalog does (one file, whole); false if tracefs is not
// readable.
bool ReadAvailableEvents() {
  static char buffer[4 << 20];
  for (const char *path :
       {"/sys/kernel/tracing/available_events", "/sys/kernel/debug/tracing/available_events"}) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) continue;
    size_t total = 0;
    ssize_t n;
    while (total < sizeof buffer && (n = read(fd, buffer + total, sizeof buffer - total)) > 0) {
      total += static_cast<size_t>(n);
    }
    close(fd);
    return total > 0;
  }
  return false;
}

// The first per-thread event of the process, as the status probe opens it (a kernel software
// event, disabled, user mode only), closed at once.
bool OpenFirstEvent() {
  perf_event_attr attr;
  memset(&attr, 0, sizeof attr);
  attr.size = sizeof attr;
  attr.type = PERF_TYPE_SOFTWARE;
  attr.config = PERF_COUNT_SW_CGROUP_SWITCHES;  // what the probe asks about first
  attr.disabled = 1;
  attr.exclude_kernel = 1;
  attr.exclude_hv = 1;
  long fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
  if (fd < 0) return false;
  close(static_cast<int>(fd));
  return true;
}

// Runs one child; returns its seconds, or -1 if it failed.
Times RunChild(const char *library) {
  Times times;
  int fds[2];
  if (pipe(fds) != 0) return times;
  pid_t child = fork();
  if (child == 0) {
    dup2(fds[1], 3);
    setenv("PMAPI_BENCH_COLD", library, 1);
    if (strcmp(library, "pmapi-no-cache") == 0) setenv("PMAPI_NO_CACHE", "1", 1);
    if (strcmp(library, "pmapi") == 0) {
      setenv("XDG_RUNTIME_DIR", g_cache_dir.c_str(), 1);
      unsetenv("PMAPI_NO_CACHE");
    }
    execl("/proc/self/exe", "pmapi_bench", static_cast<char *>(nullptr));
    _exit(127);
  }
  close(fds[1]);
  if (read(fds[0], &times, sizeof times) != sizeof times) times = Times{};
  close(fds[0]);
  waitpid(child, nullptr, 0);
  return times;
}

void MeasureInFreshProcess(benchmark::State &state, const char *library) {
  double cpu = 0;
  for (auto _ : state) {
    Times times = RunChild(library);
    if (times.wall < 0) return state.SkipWithError("initialization failed");
    state.SetIterationTime(times.wall);
    cpu += times.cpu;
  }
  state.counters["cpu_ms"] = cpu * 1e3 / static_cast<double>(state.iterations());
}

// An untimed child, which fills the cache should it be empty; false (and the benchmark skipped)
// when it failed or left no cache file.
bool FillCache(benchmark::State &state) {
  if (RunChild("pmapi").wall < 0) {
    state.SkipWithError("initialization failed");
    return false;
  }
  if (!CacheFilled()) {
    state.SkipWithError(
        "no cache file after the first child: this would measure the no-cache path");
    return false;
  }
  return true;
}

void BM_ColdInit_Pmapi(benchmark::State &state) {
  if (!FillCache(state)) return;
  MeasureInFreshProcess(state, "pmapi");
}
BENCHMARK(BM_ColdInit_Pmapi)->UseManualTime()->Unit(benchmark::kMillisecond);

void BM_ColdInit_PmapiNoCache(benchmark::State &state) {
  MeasureInFreshProcess(state, "pmapi-no-cache");
}
BENCHMARK(BM_ColdInit_PmapiNoCache)->UseManualTime()->Unit(benchmark::kMillisecond);

void BM_ColdInit_Papi(benchmark::State &state) { MeasureInFreshProcess(state, "papi"); }
BENCHMARK(BM_ColdInit_Papi)->UseManualTime()->Unit(benchmark::kMillisecond);

// The two alternately, one fresh process of each per iteration, so that a change of load on a
// shared machine falls on both alike (the benchmarks above run one after the other). The time
// is pm_initialize's (cache filled); papi_ms is PAPI_library_init's in the same iterations and
// x_papi the ratio of the two sums.
void BM_ColdInit_Interleaved(benchmark::State &state) {
  if (!FillCache(state)) return;
  double pmapi = 0, papi = 0;
  for (auto _ : state) {
    Times ours = RunChild("pmapi");
    Times theirs = RunChild("papi");
    if (ours.wall < 0 || theirs.wall < 0) return state.SkipWithError("initialization failed");
    state.SetIterationTime(ours.wall);
    pmapi += ours.wall;
    papi += theirs.wall;
  }
  state.counters["papi_ms"] = papi * 1e3 / static_cast<double>(state.iterations());
  state.counters["x_papi"] = papi > 0 ? pmapi / papi : 0;
}
BENCHMARK(BM_ColdInit_Interleaved)->UseManualTime()->Unit(benchmark::kMillisecond);

// The kernel's share of building the catalog from its sources (see the top of this file).
void BM_ColdInit_KernelFloor(benchmark::State &state) {
  double read = 0, open = 0;
  for (auto _ : state) {
    Times times = RunChild("kernel-floor");
    if (times.wall < 0) {
      return state.SkipWithError("tracefs is not readable or perf_event_open was refused");
    }
    state.SetIterationTime(times.wall);
    read += times.parts[0];
    open += times.parts[1];
  }
  const double n = static_cast<double>(state.iterations());
  state.counters["read_ms"] = read * 1e3 / n;
  state.counters["open_ms"] = open * 1e3 / n;
}
BENCHMARK(BM_ColdInit_KernelFloor)->UseManualTime()->Unit(benchmark::kMillisecond);

// The child side: initialize one library, report the seconds, exit.
int RunColdChild(const char *library) {
  double wall = Seconds(CLOCK_MONOTONIC);
  double cpu = Seconds(CLOCK_PROCESS_CPUTIME_ID);
  Times times;
  bool ok = false;
  if (strcmp(library, "kernel-floor") == 0) {
    ok = ReadAvailableEvents();
    times.parts[0] = Seconds(CLOCK_MONOTONIC) - wall;
    ok = ok && OpenFirstEvent();
    times.parts[1] = Seconds(CLOCK_MONOTONIC) - wall - times.parts[0];
  } else {
    ok = strcmp(library, "papi") == 0 ? InitPapi() : InitPmapi();
  }
  if (ok) {
    times.wall = Seconds(CLOCK_MONOTONIC) - wall;
    times.cpu = Seconds(CLOCK_PROCESS_CPUTIME_ID) - cpu;
  }
  return write(3, &times, sizeof times) == sizeof times ? 0 : 1;
}

}  // namespace

int main(int argc, char **argv) {
  if (const char *library = getenv("PMAPI_BENCH_COLD")) return RunColdChild(library);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  char pattern[] = "/tmp/pmapi-bench-cache-XXXXXX";
  if (!mkdtemp(pattern)) {
    perror("mkdtemp");
    return 1;
  }
  g_cache_dir = pattern;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  unlink(CacheFile().c_str());
  rmdir(g_cache_dir.c_str());
  return 0;
}
