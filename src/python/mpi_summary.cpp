// SPDX-License-Identifier: MIT
#include "mpi_summary.h"

#include "cross_rank_summary.h"

#include <pybind11/stl.h>

#include <string>
#include <tuple>
#include <vector>

namespace py = pybind11;

namespace pmapi_python {
namespace {

// One rank's part: (rank, host, wall seconds, counted, values in the order of `events`).
using RankTuple = std::tuple<int, std::string, double, bool, std::vector<long long>>;

pmapi_mpi::EventSet SetOf(const std::vector<std::string> &events,
                          const std::vector<RankTuple> &ranks) {
  pmapi_mpi::EventSet set;
  set.name = "run";
  set.events = events;
  for (const RankTuple &r : ranks) {
    pmapi_mpi::RankCounts counts;
    std::tie(counts.rank, counts.host, counts.wall_s, counts.counted, counts.values) = r;
    if (counts.values.size() != events.size())
      throw py::value_error("rank " + std::to_string(counts.rank) + " has " +
                            std::to_string(counts.values.size()) + " values for " +
                            std::to_string(events.size()) + " events");
    set.ranks.push_back(std::move(counts));
  }
  return set;
}

std::string Banner(const std::vector<std::string> &events, const std::vector<RankTuple> &ranks,
                   const std::string &title) {
  return pmapi_mpi::FormatBanner({SetOf(events, ranks)}, title);
}

// Per event: (event, counted ranks, sum, min, min rank, max, max rank, mean, imbalance).
py::list Stats(const std::vector<std::string> &events, const std::vector<RankTuple> &ranks) {
  py::list rows;
  for (const pmapi_mpi::EventStats &s : pmapi_mpi::Summarize(SetOf(events, ranks)))
    rows.append(py::make_tuple(s.event, s.counted_ranks, s.sum, s.min, s.min_rank, s.max,
                               s.max_rank, s.mean, s.imbalance));
  return rows;
}

}  // namespace

void BindMpiSummary(py::module_ &module) {
  module.def("_mpi_banner", &Banner, py::arg("events"), py::arg("ranks"), py::arg("title"));
  module.def("_mpi_stats", &Stats, py::arg("events"), py::arg("ranks"));
}

}  // namespace pmapi_python
