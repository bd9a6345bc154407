/* SPDX-License-Identifier: MIT */
// Order statistics of a set of per-call times.
#pragma once

#include <vector>

struct Summary {
  double min = 0;
  double median = 0;
  double p99 = 0;
};

// Sorts `ns` in place; an empty set gives zeros.
Summary Summarize(std::vector<double> &ns);
