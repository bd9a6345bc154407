// The processors, numbered two ways: the dense index 0..n-1 over the online
// CPUs that pm_get_data_cpu takes, and the Linux CPU number (hwloc's PU
// os_index) that pm_get_data_lcpu and perf_event_open take. Each online CPU
// also knows its core and package, for per-core and per-socket totals.
#pragma once

#include <vector>

#include "core/status.h"

namespace pmapi {

struct CpuInfo {
  int linux_cpu = -1;  // perf_event_open's cpu argument
  int core = -1;       // hwloc logical index of the core
  int package = -1;    // hwloc logical index of the package (socket)
};

class Topology {
 public:
  // A fresh snapshot of the online CPUs, ascending by Linux number. Loads only
  // packages, cores and PUs (a full hwloc load costs ~11 ms here).
  static Status Load(Topology *out);

  // The snapshot taken on first call, kept for the process.
  static const Topology &Cached();

  const std::vector<CpuInfo> &cpus() const { return cpus_; }
  int size() const { return static_cast<int>(cpus_.size()); }
  // Dense index of a Linux CPU, or -1 if it is not online in this snapshot.
  int DenseIndexOf(int linux_cpu) const;

  // For tests and hotplug handling: a snapshot built from a list.
  static Topology FromCpus(std::vector<CpuInfo> cpus);

 private:
  std::vector<CpuInfo> cpus_;
  std::vector<int> dense_by_linux_;  // indexed by Linux CPU number, -1 if absent
};

}  // namespace pmapi
