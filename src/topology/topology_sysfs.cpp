// SPDX-License-Identifier: MIT
// The cheap snapshot: one small sysfs read instead of an hwloc load, for
// re-checking which CPUs are online (hotplug) and as Cached()'s fallback.
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "base/kernel.h"
#include "pmapi.h"
#include "topology/cpu_list.h"
#include "topology/topology.h"

namespace pmapi {

namespace {
constexpr const char kOnlineCpusPath[] = "/sys/devices/system/cpu/online";
}  // namespace

Status Topology::LoadOnlineCpusFromSysfs(Topology *out) {
  std::string text;
  int rc = CurrentKernel().ReadFile(kOnlineCpusPath, &text);
  if (rc < 0) {
    // Not StatusFromErrno: it would read ENOENT as "no such event", wrong for a sysfs file.
    return StatusFromFileErrno(-rc, std::string("cannot read ") + kOnlineCpusPath);
  }

  std::vector<int> numbers;
  Status parsed = ParseCpuList(text, &numbers);
  if (!parsed.ok()) {
    return Status(Pmapi_KernelError, std::string(kOnlineCpusPath) + ": " + parsed.detail());
  }
  if (numbers.empty()) {
    return Status(Pmapi_KernelError, std::string(kOnlineCpusPath) + " lists no CPU");
  }

  // sysfs says nothing about cores and packages here; they stay -1.
  std::vector<CpuInfo> cpus;
  cpus.reserve(numbers.size());
  for (int number : numbers) {
    CpuInfo cpu;
    cpu.linux_cpu = number;
    cpus.push_back(cpu);
  }
  *out = FromCpus(std::move(cpus));
  return Status::Ok();
}

}  // namespace pmapi
