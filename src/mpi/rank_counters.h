/* SPDX-License-Identifier: MIT */
// One rank's counting: the events PMAPI_MPI_EVENTS names (or the machine's default group),
// programmed as a process-level counting group on the rank itself through the public pm_*
// calls, so that every thread of the rank counts, those started later included.
#pragma once

#include <string>
#include <vector>

namespace pmapi_mpi {

class RankCounters {
 public:
  // Resolves `spec` ("" = the default group; a group's short name; or event names separated
  // by commas) and starts counting. On failure counting() is false and why() says why.
  void Start(const std::string &spec);

  // The counts so far, one per event; false when the rank is not counting or the read failed.
  bool Read(std::vector<long long> *values) const;

  // Deletes the counting group (after the last Read).
  void Stop();

  bool counting() const { return counting_; }
  const std::string &why() const { return why_; }
  const std::vector<std::string> &events() const { return events_; }

 private:
  std::string Program(const std::string &spec);

  bool counting_ = false;
  std::string why_;
  std::vector<std::string> events_;
};

}  // namespace pmapi_mpi
