/* SPDX-License-Identifier: MIT */
// Named regions of one rank (pm_mpi_region_begin/end): what the rank's counters advanced
// between each begin and its end, summed per name.
#pragma once

#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "rank_counters.h"

namespace pmapi_mpi {

struct RegionTotals {
  long long calls = 0;
  double wall_s = 0;
  std::vector<long long> values;
};

class Regions {
 public:
  explicit Regions(const RankCounters *counters) : counters_(counters) {}

  // 0, or -1 for a bad name or an end without its begin.
  int Begin(const char *name);
  int End(const char *name);

  // The totals per name, in name order; regions still open are left out.
  std::map<std::string, RegionTotals> Totals() const;

 private:
  struct Open {
    std::string name;
    double start_s;
    std::vector<long long> start;
  };

  const RankCounters *counters_;
  mutable std::mutex mutex_;
  std::vector<Open> open_;
  std::map<std::string, RegionTotals> totals_;
};

double MonotonicSeconds();

}  // namespace pmapi_mpi
