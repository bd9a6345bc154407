// SPDX-License-Identifier: MIT
// pm_get_data_cpu's dense index on a synthetic machine (HWLOC_XMLFILE, set before the library
// first looks): it follows hwloc's logical order while every group still opens on its Linux CPU,
// and pmapi_topology.h answers each index's Linux number, core, package and NUMA node exactly as
// hwloc does. The perf kernel is simulated (so CPUs 8-30 can be opened on a 2-CPU machine) and
// the online list served through the kernel seam.
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
    setenv("HWLOC_XMLFILE", TopologyMachine("offline_gaps.xml").c_str(), 1) == 0;

struct Place {
  int lcpu, core, package, numa_node;
};

// tests/topology_machines/offline_gaps.xml as lstopo shows it, in logical order.
const std::vector<Place> kMachine = {{0, 0, 0, 0},  {4, 0, 0, 0},  {1, 1, 0, 0}, {2, 2, 0, 0},
                                     {3, 3, 0, 0},  {7, 3, 0, 0},  {8, 4, 1, 2}, {24, 4, 1, 2},
                                     {10, 5, 1, 2}, {14, 6, 1, 2}, {30, 6, 1, 2}};

void ExpectPlaces(const std::vector<Place> &expected) {
  int count = -1;
  ASSERT_EQ(pm_get_cpu_count(&count), 0);
  ASSERT_EQ(count, static_cast<int>(expected.size()));
  for (int cpuid = 0; cpuid < count; ++cpuid) {
    pm_cpu_topology_t where;
    ASSERT_EQ(pm_get_cpu_topology(cpuid, &where), 0) << cpuid;
    const Place &want = expected[static_cast<size_t>(cpuid)];
    EXPECT_EQ(where.cpuid, cpuid);
    EXPECT_EQ(where.lcpu, want.lcpu) << "cpuid " << cpuid;
    EXPECT_EQ(where.core, want.core) << "cpuid " << cpuid;
    EXPECT_EQ(where.package, want.package) << "cpuid " << cpuid;
    EXPECT_EQ(where.numa_node, want.numa_node) << "cpuid " << cpuid;
  }
  pm_cpu_topology_t where;
  EXPECT_EQ(pm_get_cpu_topology(count, &where), Pmapi_InvalidCpu);
  EXPECT_EQ(pm_get_cpu_topology(-1, &where), Pmapi_InvalidCpu);
}

class SyntheticMachine : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(kMachineSet);
    ASSERT_TRUE(InitializeAll());
  }
};

TEST_F(SyntheticMachine, WithoutAProgramTheMachineIsNumberedAsHwlocNumbersIt) {
  ExpectPlaces(kMachine);
}

TEST_F(SyntheticMachine, NullArgumentsAreErrors) {
  EXPECT_EQ(pm_get_cpu_count(nullptr), Pmapi_InvalidArg);
  EXPECT_EQ(pm_get_cpu_topology(0, nullptr), Pmapi_InvalidArg);
}

TEST_F(SyntheticMachine, CpuReadsFollowTheDenseOrderAndOpenPerLinuxCpu) {
  if (geteuid() != 0) GTEST_SKIP() << "system-wide counting needs root";
  CpuRecordingKernel kernel;
  ScopedKernel scoped(&kernel);
  // Since hwloc looked, CPU 30 went offline and CPU 12 came online.
  kernel.SetFile("/sys/devices/system/cpu/online", "0-4,7-8,10,12,14,24\n");
  pm_prog_t prog = MakeProgram({EventId("task-clock")}, PM_USER | PM_KERNEL);
  ASSERT_EQ(pm_set_program(&prog), 0) << pm_strerror("pm_set_program", 0);

  std::vector<Place> program = kMachine;
  program.pop_back();                   // 30 is not counted
  program.push_back({12, -1, -1, -1});  // unknown to hwloc: last, without a place
  ExpectPlaces(program);

  pm_data_t data;
  kernel.TakeCpusRead();
  for (int cpuid = 0; cpuid < static_cast<int>(program.size()); ++cpuid) {
    const int lcpu = program[static_cast<size_t>(cpuid)].lcpu;
    ASSERT_EQ(pm_get_data_cpu(cpuid, &data), 0) << pm_strerror("pm_get_data_cpu", 0);
    EXPECT_EQ(kernel.TakeCpusRead(), std::vector<int>{lcpu}) << "cpuid " << cpuid;
    ASSERT_EQ(pm_get_data_lcpu(lcpu, &data), 0) << pm_strerror("pm_get_data_lcpu", 0);
    EXPECT_EQ(kernel.TakeCpusRead(), std::vector<int>{lcpu}) << "lcpu " << lcpu;
  }
  EXPECT_EQ(pm_get_data_cpu(static_cast<int>(program.size()), &data), Pmapi_InvalidCpu);
  EXPECT_EQ(pm_get_data_lcpu(30, &data), Pmapi_InvalidCpu)
      << "30 is beyond this (real) machine's configured CPUs";
  ASSERT_EQ(pm_delete_program(), 0);
  EXPECT_EQ(kernel.LibraryDescriptors(), 0);

  // Deleted: the machine's numbering again.
  ExpectPlaces(kMachine);
}

}  // namespace
