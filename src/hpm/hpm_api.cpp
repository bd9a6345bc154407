// SPDX-License-Identifier: MIT
// The C entry points of libhpm: find the run, check the call, hand it to the
// section code. Nothing here throws; a bad call is reported and ignored.
#define LIBHPM_NO_MACROS
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hpm_api.h"
#include "launcher_rank.h"
#include "report.h"
#include "run_use.h"
#include "sections.h"

namespace hpm {
namespace {

std::atomic<Run *> g_run{nullptr};
std::atomic<int> g_generation{0};

constexpr long kMaxSections = 1000000;  // a bound for HPM_NUM_INST_PTS

int SectionsWanted() {
  const char *env = getenv("HPM_NUM_INST_PTS");
  if (!env || !*env) return HPM_DEFAULT_INST_PTS;
  char *end = nullptr;
  long n = strtol(env, &end, 10);
  if (*end != '\0' || n < 1 || n > kMaxSections) {
    fprintf(stderr, "libhpm: HPM_NUM_INST_PTS '%s' is not a number from 1 to %ld; using %d\n", env,
            kMaxSections, HPM_DEFAULT_INST_PTS);
    return HPM_DEFAULT_INST_PTS;
  }
  return static_cast<int>(n);
}

// A forked child goes on with the run in a process of its own (sections.h, ContinueInChild).
void AfterForkInChild() {
  ForgetCallsInChild();
  if (Run *run = g_run.load(std::memory_order_acquire)) ContinueInChild(run);
  ForgetWhatWasTold();
}

// Threads calling hpmInit at once each build a run: the first to publish wins, and every
// other counts as hpmInit called twice. A run that lost was never seen by another thread, so it
// is undone and freed here; the winner is read inside a RunUse, since it may be terminating.
void Publish(Run *run, const char *file, int line) {
  {
    RunUse use;
    Run *winner = nullptr;
    if (g_run.compare_exchange_strong(winner, run, std::memory_order_seq_cst)) return;
    Report(Misuse::kInitTwice, &winner->misuse, file, line, -1);
  }
  if (run->events.programmed_here) pm_delete_program_mythread();
  delete run;
}

void WatchForks() {
  static const bool registered = pthread_atfork(nullptr, nullptr, &AfterForkInChild) == 0;
  if (!registered) fputs("libhpm: pthread_atfork failed: a forked child counts nothing\n", stderr);
}

}  // namespace

Run *CurrentRun(const char *file, int line) {
  Run *run = RunInUse(g_run);
  if (!run) Report(Misuse::kBeforeInit, nullptr, file, line, -1);
  return run;
}

void Init(int task_id, const char *program, size_t program_len, const char *file, int line) {
  {
    RunUse use;
    if (Run *running = RunInUse(g_run)) {
      Report(Misuse::kInitTwice, &running->misuse, file, line, -1);
      return;
    }
  }
  FreeRetiredRuns();
  WatchForks();
  Run *run = new (std::nothrow) Run;
  if (!run) return;
  run->generation = g_generation.fetch_add(1) + 1;
  run->requested_task_id = task_id;
  run->task_id = task_id;
  tools::LauncherRank(&run->task_id);  // under a launcher, the task id is the rank it gives
  if (program) {
    if (program_len == SIZE_MAX) program_len = strlen(program);
    while (program_len > 0 && program[program_len - 1] == ' ') --program_len;
    run->program.assign(program, program_len);
  }
  // Ids 0..n: codes number their n sections from 0 or from 1, and both fit.
  run->num_sections = SectionsWanted() + 1;
  run->sections.reset(new (std::nothrow) Section[run->num_sections]);
  if (!run->sections) {
    fprintf(stderr, "libhpm: out of memory for %d sections\n", run->num_sections);
    delete run;
    return;
  }
  run->counting = ChooseAndProgram(&run->events);
  run->init_ns = static_cast<long long>(pmapi::MonotonicNanos());
  Publish(run, file, line);
}

void Terminate(const char *file, int line) {
  Run *run = g_run.exchange(nullptr, std::memory_order_seq_cst);
  if (!run) {
    Report(Misuse::kTerminateTwice, nullptr, file, line, -1);
    return;
  }
  StopAllSections(run, file, line);
  run->terminate_ns = static_cast<long long>(pmapi::MonotonicNanos());
  // Out of memory while formatting, the report is lost but the host program goes on: no
  // exception leaves a C entry point.
  try {
    WriteReports(*run);
  } catch (...) {
    fputs("libhpm: out of memory while writing the report; it is incomplete or missing\n", stderr);
  }
  if (run->counting) pm_delete_program_mythread();
  // Another thread may still be inside a call with the run: it is freed once none is
  // (run_use.h), here when no call is inside now.
  Retire(run);
  FreeRetiredRuns();
}

void Start(int id, const char *label, size_t label_len, const char *file, int line, bool threaded) {
  RunUse use;
  if (Run *run = CurrentRun(file, line)) {
    StartSection(run, id, label, label_len, file, line, threaded);
  }
}

void Stop(int id, const char *file, int line) {
  RunUse use;
  if (Run *run = CurrentRun(file, line)) StopSection(run, id, file, line);
}

void GetTimeAndCounters(int num_counters, double *time, long long *values) {
  RunUse use;
  Run *run = CurrentRun(nullptr, 0);
  if (!run) return;
  long long counts[MAX_COUNTERS];
  ReadThreadCounts(run, counts);
  if (time)
    *time =
        static_cast<double>(static_cast<long long>(pmapi::MonotonicNanos()) - run->init_ns) / 1e9;
  if (!values) return;
  int n = static_cast<int>(run->events.names.size());
  if (num_counters < n) n = num_counters;
  for (int i = 0; i < n; ++i) values[i] = counts[i];
}

}  // namespace hpm

extern "C" {

void hpm_init_at(int taskID, const char *progName, const char *file, int line) {
  hpm::Init(taskID, progName, SIZE_MAX, file, line);
}

void hpm_terminate_at(int, const char *file, int line) { hpm::Terminate(file, line); }

void hpm_start_at(int instID, const char *label, const char *file, int line) {
  hpm::Start(instID, label, SIZE_MAX, file, line, false);
}
void hpm_stop_at(int instID, const char *file, int line) { hpm::Stop(instID, file, line); }
void hpm_tstart_at(int instID, const char *label, const char *file, int line) {
  hpm::Start(instID, label, SIZE_MAX, file, line, true);
}
void hpm_tstop_at(int instID, const char *file, int line) { hpm::Stop(instID, file, line); }

void hpmInit(int taskID, const char *progName) { hpm_init_at(taskID, progName, nullptr, 0); }
void hpmTerminate(int taskID) { hpm_terminate_at(taskID, nullptr, 0); }
void hpmStart(int instID, const char *label) { hpm_start_at(instID, label, nullptr, 0); }
void hpmStop(int instID) { hpm_stop_at(instID, nullptr, 0); }
void hpmTstart(int instID, const char *label) { hpm_tstart_at(instID, label, nullptr, 0); }
void hpmTstop(int instID) { hpm_tstop_at(instID, nullptr, 0); }

void hpmGetCounters(long long *values) { hpm::GetTimeAndCounters(MAX_COUNTERS, nullptr, values); }

void hpmGetTimeAndCounters(int numCounters, double *time, long long *values) {
  hpm::GetTimeAndCounters(numCounters, time, values);
}

}  // extern "C"
