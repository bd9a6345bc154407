/* SPDX-License-Identifier: MIT */
// hpmcount -a: one report over a parallel job's tasks, as AIX's hpmcount writes
// HPM_LOG_DIR/hpm_log.<partition> under POE. hpmcount has no MPI of its own: each task leaves
// its counts in the directory the tasks share, and the task that completes the set sums them
// with the MPI layer's cross-rank summary (src/report/cross_rank_summary.h).
#pragma once

#include <string>

#include "hpm_report.h"

namespace aix {

// Who this task is in its job, from the launcher's environment: the rank and size from the
// first launcher of src/report/launcher_rank.h that sets both; the job's name only from POE
// (MP_PARTITION) or Slurm (SLURM_JOB_ID and SLURM_STEP_ID), or HPM_AGGREGATE_ID.
struct TaskIdentity {
  int rank = -1;
  int size = 0;
  std::string job;
  std::string why;  // when the task cannot be placed: what is missing
};
TaskIdentity IdentifyTask();

// Leaves this task's counts in `dir` (hpm_log.<job>.task<rank>); when every task's are there,
// the one that claims them first (hpm_log.<job>.claim) writes the sum to hpm_log.<job> and sets
// `aggregate` to its path. Returns "" or what went wrong, a claim made by another run of the
// job included (the sum is then not written).
std::string AddToAggregate(const std::string &dir, const TaskIdentity &task,
                           const HpmReport &report, std::string *aggregate);

}  // namespace aix
