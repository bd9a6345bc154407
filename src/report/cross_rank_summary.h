/* SPDX-License-Identifier: MIT */
// The cross-rank summary of per-rank counts: per event the sum, the minimum and maximum with
// their ranks, the mean and the imbalance (max/mean), and the banner rank 0 prints. No MPI
// here: libpmapi-mpi prints it at MPI_Finalize, pmcount --merge builds it from per-rank files
// and hpmcount -a from its tasks' logs, all three from this one copy (src/report).
#pragma once

#include <string>
#include <vector>

namespace pmapi_mpi {

struct RankCounts {
  int rank = 0;
  std::string host;
  double wall_s = 0;       // wall time of the counted span
  bool counted = false;    // false: the rank could not count (its values mean nothing)
  long long calls = 0;     // regions: how often the rank entered it
  double library_ms = -1;  // the run: time spent in libpmapi-mpi's MPI_Init and MPI_Finalize work
  std::vector<long long> values;  // one per EventSet::events
};

// One event set: the whole run, or one region.
struct EventSet {
  std::string name;  // "run" for the whole run, else the region's name
  std::vector<std::string> events;
  std::vector<RankCounts> ranks;  // in rank order
};

struct EventStats {
  std::string event;
  int counted_ranks = 0;  // ranks whose values take part
  long long sum = 0;
  long long min = 0, max = 0;
  int min_rank = -1, max_rank = -1;
  double mean = 0;
  double imbalance = 0;  // max / mean; 0 when the mean is 0
};

struct WallStats {
  double min = 0, max = 0, mean = 0;
  int min_rank = -1, max_rank = -1;
};

std::vector<EventStats> Summarize(const EventSet &set);
WallStats SummarizeWall(const EventSet &set);

// The banner: job size, wall times, then one line per event of each set.
std::string FormatBanner(const std::vector<EventSet> &sets, const std::string &title);

// The full per-rank table with the summary, for PMAPI_MPI_OUTPUT.
std::string FormatJson(const std::vector<EventSet> &sets, int collectives);
std::string FormatCsv(const std::vector<EventSet> &sets);

// Writes `text` to `path` through a temporary beside it and a rename, so that a job killed
// mid-write leaves the old file or none, never half of one. The temporary is created new,
// never through a link, and a link at `path` is replaced, not followed: links planted in a
// shared directory cannot redirect the write. Returns "" or what went wrong.
std::string WriteAtomically(const std::string &path, const std::string &text);

}  // namespace pmapi_mpi
