// SPDX-License-Identifier: MIT
// hwloc's numbering as the library takes it: synthetic machines loaded from XML (a two-socket
// SMT machine whose Linux numbering interleaves the sockets; one with offline CPUs and gaps in
// every numbering), the CpuMap that numbers a program's CPUs, and this machine against lstopo.
#include <gtest/gtest.h>
#include <stdio.h>

#include <regex>
#include <string>
#include <vector>

#include "pmapi.h"
#include "pmapi_topology.h"
#include "support/topology_machines.h"
#include "topology/cpu_map.h"
#include "topology/topology.h"

namespace pmapi {
namespace {

std::string Machine(const char *name) { return pmapi_test::TopologyMachine(name); }

// What hwloc says of each PU of the XML, in logical order (lstopo prints the same trees, see
// docs/topology.md): Linux number, core, package, NUMA node.
struct Expected {
  int linux_cpu, core, package, numa_node;
};

// Package 0 holds the even Linux numbers, package 1 the odd ones; CPU n's SMT sibling is n + 8.
const std::vector<Expected> kTwoSocketSmt = {
    {0, 0, 0, 0}, {8, 0, 0, 0},  {2, 1, 0, 0}, {10, 1, 0, 0}, {4, 2, 0, 0}, {12, 2, 0, 0},
    {6, 3, 0, 0}, {14, 3, 0, 0}, {1, 4, 1, 1}, {9, 4, 1, 1},  {3, 5, 1, 1}, {11, 5, 1, 1},
    {5, 6, 1, 1}, {13, 6, 1, 1}, {7, 7, 1, 1}, {15, 7, 1, 1}};

// CPUs 5, 6, 12, 26 and 28 offline (a whole core among them), Linux numbers with gaps (9,
// 11, 13 and 16-23 do not exist) and NUMA nodes 0 and 2.
const std::vector<Expected> kOfflineGaps = {
    {0, 0, 0, 0}, {4, 0, 0, 0},  {1, 1, 0, 0},  {2, 2, 0, 0},  {3, 3, 0, 0}, {7, 3, 0, 0},
    {8, 4, 1, 2}, {24, 4, 1, 2}, {10, 5, 1, 2}, {14, 6, 1, 2}, {30, 6, 1, 2}};

void ExpectExactly(const Topology &topology, const std::vector<Expected> &expected) {
  ASSERT_EQ(topology.size(), static_cast<int>(expected.size()));
  for (int dense = 0; dense < topology.size(); ++dense) {
    const CpuInfo &cpu = topology.cpus()[static_cast<size_t>(dense)];
    const Expected &want = expected[static_cast<size_t>(dense)];
    EXPECT_EQ(cpu.linux_cpu, want.linux_cpu) << "dense " << dense;
    EXPECT_EQ(cpu.core, want.core) << "dense " << dense;
    EXPECT_EQ(cpu.package, want.package) << "dense " << dense;
    EXPECT_EQ(cpu.numa_node, want.numa_node) << "dense " << dense;
    EXPECT_EQ(topology.DenseIndexOf(want.linux_cpu), dense);
  }
}

TEST(TopologyXml, TwoSocketSmtFollowsHwlocLogicalOrder) {
  Topology topology;
  Status status = Topology::LoadFromXml(Machine("two_socket_smt.xml"), &topology);
  ASSERT_TRUE(status.ok()) << status.detail();
  ExpectExactly(topology, kTwoSocketSmt);
}

TEST(TopologyXml, OfflineCpusAndGapsAreLeftOut) {
  Topology topology;
  Status status = Topology::LoadFromXml(Machine("offline_gaps.xml"), &topology);
  ASSERT_TRUE(status.ok()) << status.detail();
  ExpectExactly(topology, kOfflineGaps);
  for (int absent : {5, 6, 9, 12, 16, 26, 28, 31}) {
    EXPECT_EQ(topology.DenseIndexOf(absent), -1) << absent;
  }
}

TEST(TopologyXml, AMissingFileIsAnErrorNotACrash) {
  Topology topology;
  Status status = Topology::LoadFromXml(Machine("no_such_machine.xml"), &topology);
  EXPECT_EQ(status.code(), Pmapi_KernelError);
  EXPECT_NE(status.detail().find("hwloc"), std::string::npos) << status.detail();
  EXPECT_EQ(topology.size(), 0);
}

// --- the CpuMap of a program ----------------------------------------------------------------

TEST(CpuMapTest, GroupsAscendDenseIndicesFollowTheTopology) {
  Topology order;
  ASSERT_TRUE(Topology::LoadFromXml(Machine("two_socket_smt.xml"), &order).ok());
  std::vector<int> online;
  for (int cpu = 0; cpu < 16; ++cpu) online.push_back(cpu);
  const CpuMap map = CpuMap::Of(online, order);
  ASSERT_EQ(map.size(), 16);
  EXPECT_EQ(map.linux_cpus(), online) << "groups open in ascending Linux order";
  for (int dense = 0; dense < 16; ++dense) {
    const int linux_cpu = kTwoSocketSmt[static_cast<size_t>(dense)].linux_cpu;
    EXPECT_EQ(map.LinuxOfDense(dense), linux_cpu) << dense;
    EXPECT_EQ(map.GroupOfDense(dense), linux_cpu) << "group i counts Linux CPU i here";
    EXPECT_EQ(map.GroupOfLinux(linux_cpu), linux_cpu);
  }
  EXPECT_EQ(map.GroupOfDense(16), -1);
  EXPECT_EQ(map.GroupOfDense(-1), -1);
  EXPECT_EQ(map.GroupOfLinux(16), -1);
  EXPECT_EQ(map.GroupOfLinux(-1), -1);
}

TEST(CpuMapTest, CpusTheTopologyDoesNotKnowComeLast) {
  Topology order;
  ASSERT_TRUE(Topology::LoadFromXml(Machine("offline_gaps.xml"), &order).ok());
  // Since hwloc looked, CPU 30 went offline and CPUs 12 and 5 came online.
  const CpuMap map = CpuMap::Of({0, 1, 2, 3, 4, 5, 7, 8, 10, 12, 14, 24}, order);
  const std::vector<int> dense_order = {0, 4, 1, 2, 3, 7, 8, 24, 10, 14, 5, 12};
  ASSERT_EQ(map.size(), 12);
  for (int dense = 0; dense < map.size(); ++dense) {
    EXPECT_EQ(map.LinuxOfDense(dense), dense_order[static_cast<size_t>(dense)]) << dense;
  }
  EXPECT_EQ(map.GroupOfLinux(30), -1);
  EXPECT_EQ(map.GroupOfLinux(12), 9);
}

TEST(CpuMapTest, EmptyMapNumbersNothing) {
  const CpuMap map = CpuMap::Of({}, Topology());
  EXPECT_EQ(map.size(), 0);
  EXPECT_EQ(map.GroupOfDense(0), -1);
  EXPECT_EQ(map.GroupOfLinux(0), -1);
  EXPECT_EQ(map.LinuxOfDense(0), -1);
}

// --- this machine against lstopo ------------------------------------------------------------

// The Linux numbers of the PUs in lstopo's logical order, or empty without the tool. Disallowed
// CPUs included, as the library includes them.
std::vector<int> LstopoOrder(const std::string &input_args) {
  const std::string command =
      "lstopo-no-graphics --of console --only pu -p --disallowed " + input_args + " 2>/dev/null";
  FILE *pipe = popen(command.c_str(), "r");
  if (!pipe) return {};
  std::vector<int> cpus;
  char line[256];
  const std::regex pu(R"(PU P#(\d+))");
  while (fgets(line, sizeof line, pipe)) {
    std::cmatch match;
    if (std::regex_search(line, match, pu)) cpus.push_back(std::stoi(match[1]));
  }
  pclose(pipe);
  return cpus;
}

std::vector<int> LinuxNumbers(const Topology &topology) {
  std::vector<int> numbers;
  for (const CpuInfo &cpu : topology.cpus()) numbers.push_back(cpu.linux_cpu);
  return numbers;
}

TEST(TopologyLstopo, ThisMachineIsNumberedAsLstopoNumbersIt) {
  const std::vector<int> lstopo = LstopoOrder("");
  if (lstopo.empty()) GTEST_SKIP() << "lstopo-no-graphics (Debian package hwloc) is not installed";
  Topology topology;
  ASSERT_TRUE(Topology::Load(&topology).ok());
  EXPECT_EQ(LinuxNumbers(topology), lstopo);
}

TEST(TopologyLstopo, PmGetCpuTopologyAnswersInLstoposOrder) {
  const std::vector<int> lstopo = LstopoOrder("");
  if (lstopo.empty()) GTEST_SKIP() << "lstopo-no-graphics (Debian package hwloc) is not installed";
  int count = 0;
  ASSERT_EQ(pm_get_cpu_count(&count), 0);
  std::vector<int> answered;
  for (int cpuid = 0; cpuid < count; ++cpuid) {
    pm_cpu_topology_t where;
    ASSERT_EQ(pm_get_cpu_topology(cpuid, &where), 0);
    EXPECT_EQ(where.cpuid, cpuid);
    EXPECT_GE(where.core, 0);
    EXPECT_GE(where.package, 0);
    EXPECT_GE(where.numa_node, 0);
    answered.push_back(where.lcpu);
  }
  EXPECT_EQ(answered, lstopo);
}

TEST(TopologyLstopo, TheSyntheticMachinesToo) {
  for (const char *name : {"two_socket_smt.xml", "offline_gaps.xml"}) {
    const std::vector<int> lstopo = LstopoOrder("--if xml -i " + Machine(name));
    if (lstopo.empty()) GTEST_SKIP() << "lstopo-no-graphics is not installed";
    Topology topology;
    ASSERT_TRUE(Topology::LoadFromXml(Machine(name), &topology).ok());
    EXPECT_EQ(LinuxNumbers(topology), lstopo) << name;
  }
}

}  // namespace
}  // namespace pmapi
