/* SPDX-License-Identifier: MIT */
// What the hardware suite's tests share: initializing the library, naming events, and a loop
// whose user-mode instruction count is known exactly.
#pragma once

#include <sched.h>
#include <stdint.h>

#include <array>
#include <functional>
#include <string>
#include <thread>

#include "loop.h"
#include "pmapi.h"
#include "support/make_program.h"

namespace pmu_guest {

// The loop (loop.h): n >= 1 iterations of a known number of user-mode instructions each.
inline void Loop(uint64_t n) { pmu_loop(n); }
constexpr long long kInstructionsPerIteration = PMU_LOOP_INSTRUCTIONS_PER_ITERATION;
#if defined(__powerpc64__)
// The emulated POWER PMU (QEMU's pseries machine) counts kernel instructions whatever the mode
// bits say, raises no overflow interrupt, and counts only instructions and cycles (any other
// event code opens and reads 0): the checks that need those are skipped there, saying so.
constexpr bool kPower = true;
#else
constexpr bool kPower = false;
#endif

// pm_initialize with every status; false (and a test failure) if it failed.
bool Initialize();

// The id of an event by any name the catalog understands (pm_catalog_add_event); fails the test
// and returns COUNT_NOTHING when it has none.
int EventId(const std::string &name);

// A program counting `ids` on counters 0, 1, ... with `mode`: the host tests' own.
using pmapi_test::MakeProgram;

using Counts = std::array<long long, MAX_COUNTERS>;

// One counting family's calls around a workload: reset, start, stop and a read.
struct Family {
  int (*reset)();
  int (*start)();
  int (*stop)();
  std::function<int(pm_data_t *)> read;
};
Family MyThread();
Family MyGroup();

// What `family` counts on every counter around `work(n)`: reset, start, work, stop, read. The
// least of `runs` tries, counter by counter: interrupts only add to a count (docs/hardware.md).
// `work` takes n at run time so that two lengths run the very same instructions around the loop
// (a constant would be built into the code, in one instruction or two). A failed call fails the
// test and gives -1 everywhere.
Counts LeastCounts(const Family &family, void (*work)(uint64_t), uint64_t n, int runs = 5);

// The two loop lengths of the suite's exact counts, and what the longer runs more: the
// difference of their counts is the loop's alone, whatever the calls around it cost (the same in
// both, it cancels).
constexpr uint64_t kShortLoop = 1000, kLongLoop = 201000;
constexpr long long kLoopDifference = kInstructionsPerIteration * (kLongLoop - kShortLoop);

// What `family` counts around work(kShortLoop) and around work(kLongLoop), the least of five
// runs each, after two warm-up runs (the first runs of a path cost more: lazy binding).
struct LoopRuns {
  Counts short_run;
  Counts long_run;
  // What the longer loop added on `counter`.
  long long Difference(int counter) const { return long_run[counter] - short_run[counter]; }
};
LoopRuns RunShortAndLong(const Family &family, void (*work)(uint64_t));

// How far from `exact` a count may be where the loop runs beside thread starts, forks, exits or
// another process's wake-ups: 0 on ARM, 1% on POWER. The emulated POWER PMU counts the kernel's
// instructions whatever the mode bits, and the kernel's work around those steps varies from run
// to run (-0.2% to +0.7% seen; the least of five runs does not cancel what a run lacks).
inline long long KernelSlack(long long exact) { return kPower ? exact / 100 : 0; }

// Twice KernelSlack (2% on POWER, 0 on ARM), where the loop runs in a forked child or in threads
// counted by inheritance: on POWER the kernel's fork, exit and wait around the child are counted
// too, and now and then differ by more than 1% between the runs kept (+2,088 and +2,216 of 200,000
// seen on POWER10), which the least of five runs does not cancel (docs/hardware.md).
inline long long ForkSlack(long long exact) { return 2 * KernelSlack(exact); }

// Prints "<what>: <short> and <long>, difference <difference> for <exact>" of counter 0.
void PrintDifference(const char *what, const LoopRuns &runs, long long exact);

// The libpfm4 table of this processor ("arm_ac57", "arm_n1"; "power9", "power10"), from
// /proc/cpuinfo's part number or cpu line; empty for a model the suite does not know yet
// (docs/hardware.md says how to add one).
std::string PfmTable();

// Runs the calling thread, and what it starts, on the last CPU only, until destroyed. Across
// CPUs the emulator delivers pmcount's timer late (one virtual CPU runs at a time under
// -icount): an -I tick fell 40 ms late, and _mx set switches wait the same way.
class OnLastCpu {
 public:
  OnLastCpu() {
    sched_getaffinity(0, sizeof saved_, &saved_);
    cpu_set_t only;
    CPU_ZERO(&only);
    CPU_SET(static_cast<int>(std::thread::hardware_concurrency()) - 1, &only);
    sched_setaffinity(0, sizeof only, &only);
  }
  ~OnLastCpu() { sched_setaffinity(0, sizeof saved_, &saved_); }

 private:
  cpu_set_t saved_;
};

// Runs the calling thread, and what it starts, in one order: SCHED_FIFO on the last CPU, where
// a thread runs until it blocks and a woken one waits its turn. Under the ordinary scheduler a
// thread start, a join or a waitpid costs a few hundred user-mode instructions more or less
// depending on which thread ran first (a join that finds its thread done does not wait), and
// the least of five short runs could carry more than the long runs' least: 1,599,873 and
// 1,599,883 of 1,600,000 for a group of 4 threads, 399,982 of 400,000 for one CPU, 400,005 for
// a forked child, in about one boot in five. In one order they are exact. Needs root (the
// guest's).
class InOneOrder {
 public:
  InOneOrder();
  ~InOneOrder();

 private:
  OnLastCpu pinned_;  // threads and processes started meanwhile inherit both
  sched_param saved_param_ = {};
  int saved_policy_ = SCHED_OTHER;
};

// What `command` writes to stdout and stderr, run by the shell.
std::string RunCommand(const std::string &command);

// The PMU's counters: as the ARM kernel said at boot ("7 counters available"); 6 on POWER8,
// POWER9 and POWER10 (PMC1-4 programmable, PMC5 and PMC6 fixed), whose kernel says no number;
// 0 if unknown.
int CountersAvailable();

}  // namespace pmu_guest
