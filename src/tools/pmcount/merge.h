/* SPDX-License-Identifier: MIT */
// pmcount --merge FILE...: the cross-rank summary of per-rank CSV files written by
// `mpirun pmcount -o counts.%r.csv`, the same summary libpmapi-mpi prints (docs/mpi.md).
#pragma once

#include <string>
#include <vector>

namespace pmcount {

// `args` is argv after "--merge". Prints the summary on stdout; returns the exit status.
int RunMerge(const std::vector<std::string> &args);

}  // namespace pmcount
