/* SPDX-License-Identifier: MIT */
// Set-up shared by the libpmapi benchmarks: initialize once, find the software events' ids, and
// set a program in one of the library's scopes for as long as a benchmark runs.
#pragma once

#include <benchmark/benchmark.h>
#include <pmapi.h>

#include <string>
#include <vector>

// Initializes the library (once) and returns a program counting the four
// software events of raw_group.h on counters 0..3 in user and kernel mode.
pm_prog_t FourEventProgram();

// A program counting the first `n` (1..8) of raw_group.h's eight distinct
// software events on counters 0..n-1.
pm_prog_t ProgramWithEvents(int n);

// `prog` with PM_COUNT: counting from the set on, with no start call.
pm_prog_t Counting(pm_prog_t prog);

// One scope of libpmapi as the benchmarks use it: its set, read and delete calls, and what a
// benchmark says when the set fails.
struct PmapiScope {
  int (*set)(pm_prog_t *);
  int (*read)(pm_data_t *);
  int (*remove)();
  const char *set_failed;
};
extern const PmapiScope kMyThread;    // the calling thread
extern const PmapiScope kMyGroup;     // the calling thread and the threads it starts afterwards
extern const PmapiScope kSystemWide;  // every CPU (needs root)

// A program set in `scope` while this lives. When the set fails the benchmark is skipped with
// the scope's reason and ok() is false.
class ScopedProgram {
 public:
  ScopedProgram(benchmark::State &state, const PmapiScope &scope, pm_prog_t prog);
  ~ScopedProgram();
  ScopedProgram(const ScopedProgram &) = delete;
  ScopedProgram &operator=(const ScopedProgram &) = delete;
  bool ok() const { return ok_; }

 private:
  const PmapiScope &scope_;
  bool ok_;
};
