/* SPDX-License-Identifier: MIT */
// When a terminated run may be freed. hpmTerminate takes the run out of use, but another thread
// may be inside a call that read it a moment before; so the run is retired, and freed once no
// call that could have read it is still inside libhpm. Every call that reads the current run
// does so inside a RunUse, which counts it on one of a few counters (no lock, no allocation,
// one atomic add and one subtract on a line few threads share).
#pragma once

#include <atomic>

#include "run.h"

namespace hpm {

class RunUse {
 public:
  RunUse();
  ~RunUse();
  RunUse(const RunUse &) = delete;
  RunUse &operator=(const RunUse &) = delete;

 private:
  std::atomic<long> *calls_;
};

// The run in progress as a call inside a RunUse reads it (null when there is none).
Run *RunInUse(const std::atomic<Run *> &current);

// Hands a run already taken out of use to the retired list.
void Retire(Run *run);

// Frees the retired runs when no call is inside libhpm (a call inside may hold one); otherwise
// leaves them to a later try: the next hpmInit or hpmTerminate, or the library's unloading.
void FreeRetiredRuns();

// In a forked child only the forking thread exists, and it is in no call: the counts of the
// parent's other threads are dropped.
void ForgetCallsInChild();

}  // namespace hpm
