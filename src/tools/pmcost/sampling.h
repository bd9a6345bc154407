/* SPDX-License-Identifier: MIT */
// Timing one call at a time, and timing pm_initialize in fresh processes.
#pragma once

#include <vector>

#include "base/clock.h"

inline double NowNs() { return static_cast<double>(pmapi::MonotonicNanos()); }

// Calls `call` `n` times and puts each call's time in ns into *ns, which the
// caller reserved for n (every row reuses it: nothing is allocated here). A few
// untimed calls first, so that lazy binding and first-touch faults stay out.
template <typename Call>
std::vector<double> &Sample(std::vector<double> *ns, long n, Call call) {
  for (int i = 0; i < 16; ++i) call();
  ns->clear();
  for (long i = 0; i < n; ++i) {
    double start = NowNs();
    call();
    ns->push_back(NowNs() - start);
  }
  return *ns;
}

// The environment variable that turns pmcost into the pm_initialize child.
constexpr const char kColdChildVariable[] = "PMCOST_COLD_INIT";

// Runs pm_initialize once in each of `runs` freshly exec'd copies of this
// program (a forked copy would inherit an already-built catalog); returns the
// times in ns, or an empty vector if a child failed.
std::vector<double> SampleColdInitialize(int runs);

// The child's side: initialize, write the ns to descriptor 3, exit status.
int RunColdInitializeChild();
