// pm_initialize against PAPI_library_init, each in a freshly exec'd process
// (a forked one would inherit the parent's already-built catalog): the cost a
// short-lived tool or a job's first call pays. The child is this binary
// again, told by PMAPI_BENCH_COLD which library to initialize; it measures
// the call alone and writes the seconds to the pipe on descriptor 3.
#include <benchmark/benchmark.h>
#include <papi.h>
#include <pmapi.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

namespace {

double Seconds() {
  timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return now.tv_sec + now.tv_nsec * 1e-9;
}

bool InitPmapi() {
  pm_info2_t info;
  pm_groups_info_t groups;
  return pm_initialize(PM_VERIFIED | PM_UNVERIFIED | PM_CAVEAT | PM_GET_GROUPS, &info, &groups,
                       PM_CURRENT) == 0;
}

bool InitPapi() { return PAPI_library_init(PAPI_VER_CURRENT) == PAPI_VER_CURRENT; }

void MeasureInFreshProcess(benchmark::State &state, const char *library) {
  for (auto _ : state) {
    int fds[2];
    if (pipe(fds) != 0) return state.SkipWithError("pipe");
    pid_t child = fork();
    if (child == 0) {
      dup2(fds[1], 3);
      setenv("PMAPI_BENCH_COLD", library, 1);
      execl("/proc/self/exe", "pmapi_bench", static_cast<char *>(nullptr));
      _exit(127);
    }
    close(fds[1]);
    double elapsed = -1;
    (void)!read(fds[0], &elapsed, sizeof elapsed);
    close(fds[0]);
    waitpid(child, nullptr, 0);
    if (elapsed < 0) return state.SkipWithError("initialization failed");
    state.SetIterationTime(elapsed);
  }
}

void BM_ColdInit_Pmapi(benchmark::State &state) { MeasureInFreshProcess(state, "pmapi"); }
BENCHMARK(BM_ColdInit_Pmapi)->UseManualTime()->Unit(benchmark::kMillisecond);

void BM_ColdInit_Papi(benchmark::State &state) { MeasureInFreshProcess(state, "papi"); }
BENCHMARK(BM_ColdInit_Papi)->UseManualTime()->Unit(benchmark::kMillisecond);

// The child side: initialize one library, report the seconds, exit.
int RunColdChild(const char *library) {
  double start = Seconds();
  bool ok = strcmp(library, "papi") == 0 ? InitPapi() : InitPmapi();
  double elapsed = ok ? Seconds() - start : -1;
  return write(3, &elapsed, sizeof elapsed) == sizeof elapsed ? 0 : 1;
}

}  // namespace

int main(int argc, char **argv) {
  if (const char *library = getenv("PMAPI_BENCH_COLD")) return RunColdChild(library);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
