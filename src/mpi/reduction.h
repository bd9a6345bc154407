/* SPDX-License-Identifier: MIT */
// The job-wide reduction at MPI_Finalize: every rank's counts reach rank 0 in one collective
// for the whole run (and one more for all regions together, only when some rank used them),
// never one per event.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "cross_rank_summary.h"
#include "regions.h"

namespace pmapi_mpi {

struct RankReport {
  double wall_s = 0;
  double library_ms = 0;  // in MPI_Init and MPI_Finalize so far, the reduction included
  bool counted = false;
  std::vector<std::string> events;
  std::vector<long long> values;
  std::map<std::string, RegionTotals> regions;
};

// Collective over MPI_COMM_WORLD: every rank calls it. On rank 0 `sets` gets the whole run
// first, then one set per region name; elsewhere it stays empty. Returns the number of
// collective calls made.
int Reduce(const RankReport &mine, std::vector<EventSet> *sets);

}  // namespace pmapi_mpi
