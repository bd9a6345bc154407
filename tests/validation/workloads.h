/* SPDX-License-Identifier: MIT */
// The validation workloads: what each one runs and which event counts it,
// under the names libpmapi's catalog, perf stat and PAPI use.
#pragma once

#include <string>

struct Workload {
  const char *kind;        // argv[1] of pmapi_workload
  const char *pmapi_name;  // catalog short name
  const char *perf_name;   // perf stat -e
  const char *papi_name;   // PAPI native name
  bool user_only;          // count user mode only (the instruction loop)
};

// The workload called `kind`, or nullptr.
const Workload *FindWorkload(const std::string &kind);

// Runs the region of `workload` with size n; false if it cannot run here.
// The switches workload talks to its partner over descriptors 3 and 4.
bool RunRegion(const Workload &workload, long n);

constexpr int kPartnerReadFd = 3;
constexpr int kPartnerWriteFd = 4;
