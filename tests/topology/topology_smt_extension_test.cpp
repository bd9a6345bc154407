// SPDX-License-Identifier: MIT
// pm_get_data_cpu on a two-socket SMT machine whose Linux numbering interleaves the sockets
// (tests/topology_machines/two_socket_smt.xml, through HWLOC_XMLFILE): neighbouring cpuids are
// SMT siblings, so cpuid 1 is Linux CPU 8 and cpuid 8 is Linux CPU 1, while every group still
// opens on its own Linux CPU. The perf kernel is simulated, the online list served through the
// kernel seam.
#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <vector>

#include "pmapi.h"
#include "pmapi_topology.h"
#include "support/counting.h"
#include "support/cpu_recording_kernel.h"
#include "support/topology_machines.h"

using namespace pmapi_test;

namespace {

// Before main: the library loads its topology once per process, on first need.
const bool kMachineSet =
    setenv("HWLOC_XMLFILE", TopologyMachine("two_socket_smt.xml").c_str(), 1) == 0;

// Linux CPU of each cpuid, as lstopo shows the machine: core k holds cpuids 2k and 2k+1.
const std::vector<int> kLinuxOfCpuid = {0, 8, 2, 10, 4, 12, 6, 14, 1, 9, 3, 11, 5, 13, 7, 15};

TEST(TwoSocketSmt, CpuidsAreHwlocsAndReadsFindTheirLinuxCpu) {
  ASSERT_TRUE(kMachineSet);
  if (!InitializeAll()) return;
  if (geteuid() != 0) GTEST_SKIP() << "system-wide counting needs root";
  CpuRecordingKernel kernel;
  ScopedKernel scoped(&kernel);
  kernel.SetFile("/sys/devices/system/cpu/online", "0-15\n");
  pm_prog_t prog = MakeProgram({EventId("task-clock")}, PM_USER | PM_KERNEL);
  ASSERT_EQ(pm_set_program(&prog), 0) << pm_strerror("pm_set_program", 0);

  int count = 0;
  ASSERT_EQ(pm_get_cpu_count(&count), 0);
  ASSERT_EQ(count, 16);
  pm_data_t data;
  kernel.TakeCpusRead();
  for (int cpuid = 0; cpuid < count; ++cpuid) {
    pm_cpu_topology_t where;
    ASSERT_EQ(pm_get_cpu_topology(cpuid, &where), 0);
    EXPECT_EQ(where.lcpu, kLinuxOfCpuid[static_cast<size_t>(cpuid)]) << "cpuid " << cpuid;
    EXPECT_EQ(where.core, cpuid / 2) << "cpuid " << cpuid;
    EXPECT_EQ(where.package, cpuid / 8) << "cpuid " << cpuid;
    EXPECT_EQ(where.numa_node, cpuid / 8) << "cpuid " << cpuid;
    EXPECT_EQ(where.package, where.lcpu % 2) << "odd Linux CPUs are on socket 1";
    ASSERT_EQ(pm_get_data_cpu(cpuid, &data), 0) << pm_strerror("pm_get_data_cpu", 0);
    EXPECT_EQ(kernel.TakeCpusRead(), std::vector<int>{where.lcpu}) << "cpuid " << cpuid;
  }
  ASSERT_EQ(pm_delete_program(), 0);
  EXPECT_EQ(kernel.LibraryDescriptors(), 0);
}

}  // namespace
