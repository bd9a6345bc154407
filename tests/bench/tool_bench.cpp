// SPDX-License-Identifier: MIT
// The tools: `pmcount -e E -- true` against `perf stat -e E -- true` and a
// raw-syscall baseline, for a software event (task-clock) and a tracepoint.
// The baseline is what any counting tool must do, with nothing else: a
// forked process (this one, already loaded: no exec, no dynamic linking, no
// catalog) forks `true`, opens the event on it with enable_on_exec, lets it
// exec, waits, reads the count and exits. Wall time per run, from fork to
// reaping.
//
// The tracepoint is one nothing else in this process opens, so no anchor of
// this process hides the kernel's wait: each tool pays it when it closes the
// tracepoint's last event, at exit, and so does the baseline.
//
// And every system call's entry tracepoint at once ('syscalls:sys_enter_*',
// pmcount and perf stat only): the counting session's case, where each of the
// ~360 tracepoints has a descriptor of its own. Each run pays a grace period
// per tracepoint at exit, seconds in all: one iteration per repetition. Its
// rows carry the tool's CPU time (user + system, from wait4) as cpu_ms.
#include <benchmark/benchmark.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>
#include <vector>

namespace {

constexpr const char kTracepoint[] = "syscalls:sys_enter_getsid";
constexpr const char kAllSyscallEntries[] = "syscalls:sys_enter_*";

std::string PmcountPath() {
  char self[PATH_MAX] = {0};
  if (readlink("/proc/self/exe", self, sizeof self - 1) <= 0) return "";
  return std::string(dirname(self)) + "/../src/tools/pmcount/pmcount";
}

// Runs argv to completion with its output discarded; false if it failed.
// `cpu_ns` (when not null) receives the user and system time it used.
bool Run(const std::vector<std::string> &argv, double *cpu_ns = nullptr) {
  pid_t child = fork();
  if (child == 0) {
    const int null = open("/dev/null", O_WRONLY);
    dup2(null, 1);
    dup2(null, 2);
    std::vector<char *> args;
    for (const std::string &arg : argv) args.push_back(const_cast<char *>(arg.c_str()));
    args.push_back(nullptr);
    execvp(args[0], args.data());
    _exit(127);
  }
  int status = 0;
  struct rusage usage {};
  const bool ok = child > 0 && wait4(child, &status, 0, &usage) == child && WIFEXITED(status) &&
                  WEXITSTATUS(status) == 0;
  if (cpu_ns) {
    *cpu_ns = 1e9 * static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
              1e3 * static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec);
  }
  return ok;
}

bool TracepointAttr(const char *name, perf_event_attr *attr) {
  std::string path = std::string("/sys/kernel/tracing/events/") + name + "/id";
  path[path.find(':')] = '/';
  FILE *f = fopen(path.c_str(), "r");
  if (!f) return false;
  unsigned long long id = 0;
  const bool ok = fscanf(f, "%llu", &id) == 1;
  fclose(f);
  attr->type = PERF_TYPE_TRACEPOINT;
  attr->config = id;
  return ok;
}

// The baseline tool, in a forked copy of this process.
bool RunRaw(const perf_event_attr &event) {
  pid_t tool = fork();
  if (tool == 0) {
    int go[2];
    if (pipe2(go, O_CLOEXEC) != 0) _exit(1);
    pid_t child = fork();
    if (child == 0) {
      char c;
      if (read(go[0], &c, 1) != 1) _exit(1);
      execlp("true", "true", static_cast<char *>(nullptr));
      _exit(127);
    }
    perf_event_attr attr = event;
    attr.size = sizeof attr;
    attr.disabled = 1;
    attr.enable_on_exec = 1;
    attr.inherit = 1;
    const long fd = syscall(SYS_perf_event_open, &attr, child, -1, -1, PERF_FLAG_FD_CLOEXEC);
    if (fd < 0 || write(go[1], "x", 1) != 1) _exit(1);
    waitpid(child, nullptr, 0);
    uint64_t count = 0;
    if (read(static_cast<int>(fd), &count, sizeof count) != sizeof count) _exit(1);
    _exit(0);
  }
  int status = 0;
  return tool > 0 && waitpid(tool, &status, 0) == tool && WIFEXITED(status) &&
         WEXITSTATUS(status) == 0;
}

// The tool's CPU time per run, in ms, beside the wall time.
void CountCpu(benchmark::State &state, double cpu_ns) {
  state.counters["cpu_ms"] = benchmark::Counter(cpu_ns / 1e6, benchmark::Counter::kAvgIterations);
}

void BM_Tool_Pmcount(benchmark::State &state, const char *event) {
  const std::string pmcount = PmcountPath();
  if (access(pmcount.c_str(), X_OK) != 0) return state.SkipWithError("pmcount is not built");
  double cpu_ns = 0;
  for (auto _ : state) {
    double one = 0;
    if (!Run({pmcount, "-e", event, "--", "true"}, &one)) {
      return state.SkipWithError("pmcount failed");
    }
    cpu_ns += one;
  }
  CountCpu(state, cpu_ns);
}

void BM_Tool_PerfStat(benchmark::State &state, const char *event) {
  if (!Run({"perf", "--version"})) return state.SkipWithError("perf is not installed");
  double cpu_ns = 0;
  for (auto _ : state) {
    double one = 0;
    if (!Run({"perf", "stat", "-e", event, "--", "true"}, &one)) {
      return state.SkipWithError("perf stat failed");
    }
    cpu_ns += one;
  }
  CountCpu(state, cpu_ns);
}

void BM_Tool_Raw(benchmark::State &state, const char *event) {
  perf_event_attr attr{};
  if (strcmp(event, "task-clock") == 0) {
    attr.type = PERF_TYPE_SOFTWARE;
    attr.config = PERF_COUNT_SW_TASK_CLOCK;
  } else if (!TracepointAttr(event, &attr)) {
    return state.SkipWithError("no tracefs");
  }
  for (auto _ : state) {
    if (!RunRaw(attr)) return state.SkipWithError("the raw tool failed");
  }
}

BENCHMARK_CAPTURE(BM_Tool_Pmcount, task_clock, "task-clock")
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_Tool_PerfStat, task_clock, "task-clock")
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_Tool_Raw, task_clock, "task-clock")
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_Tool_Pmcount, tracepoint, kTracepoint)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_Tool_PerfStat, tracepoint, kTracepoint)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_Tool_Raw, tracepoint, kTracepoint)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_Tool_Pmcount, all_syscall_entries, kAllSyscallEntries)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(1);
BENCHMARK_CAPTURE(BM_Tool_PerfStat, all_syscall_entries, kAllSyscallEntries)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(1);

}  // namespace
