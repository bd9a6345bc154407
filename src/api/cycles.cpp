// SPDX-License-Identifier: MIT
// pm_cycles: the nominal clock, computed once. The computation and its
// sources live in topology/cpu_frequency.cpp, where tests can reach them.
#include "api/export.h"
#include "topology/cpu_frequency.h"

double pm_cycles(void) {
  // The nominal clock does not change while the process runs; a function-local
  // static computes it once even under concurrent first calls. Out of memory
  // while computing it, the answer is 0 (unknown) and the next call tries again.
  try {
    static const double hz = pmapi::NominalCpuHz();
    return hz;
  } catch (...) {
    return 0.0;
  }
}
