// SPDX-License-Identifier: MIT
// The processor topology: hwloc's snapshot against what the kernel says, the
// dense/Linux numbering, the sysfs fallback and the CPU list parser.
#include "topology/topology.h"

#include <errno.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "base/kernel.h"
#include "pmapi.h"
#include "support/fake_kernel.h"
#include "topology/cpu_list.h"

namespace pmapi {
namespace {

constexpr char kOnlinePath[] = "/sys/devices/system/cpu/online";

std::vector<int> LinuxNumbers(const Topology &topology) {
  std::vector<int> numbers;
  for (const CpuInfo &cpu : topology.cpus()) numbers.push_back(cpu.linux_cpu);
  return numbers;
}

// The same, ascending: hwloc's logical order need not be (tests/topology/topology_xml_test.cpp).
std::vector<int> SortedLinuxNumbers(const Topology &topology) {
  std::vector<int> numbers = LinuxNumbers(topology);
  std::sort(numbers.begin(), numbers.end());
  return numbers;
}

// Read without the kernel seam, so the check does not share code with the
// path it checks.
std::vector<int> OnlineCpusFromSysfsDirectly() {
  std::ifstream file(kOnlinePath);
  std::stringstream text;
  text << file.rdbuf();
  std::vector<int> cpus;
  EXPECT_TRUE(ParseCpuList(text.str(), &cpus).ok()) << text.str();
  return cpus;
}

std::vector<int> Parse(const std::string &text) {
  std::vector<int> cpus;
  Status status = ParseCpuList(text, &cpus);
  EXPECT_TRUE(status.ok()) << "\"" << text << "\": " << status.detail();
  return cpus;
}

CpuInfo Cpu(int linux_cpu, int core = -1, int package = -1) {
  CpuInfo cpu;
  cpu.linux_cpu = linux_cpu;
  cpu.core = core;
  cpu.package = package;
  return cpu;
}

Status FailingLoad(Topology *) { return Status(Pmapi_KernelError, "hwloc unavailable in test"); }

// --- hwloc on this machine ---------------------------------------------------

TEST(TopologyTest, LoadListsTheOnlineCpus) {
  Topology topology;
  Status status = Topology::Load(&topology);
  ASSERT_TRUE(status.ok()) << status.detail();
  EXPECT_EQ(topology.size(), sysconf(_SC_NPROCESSORS_ONLN));
  EXPECT_EQ(SortedLinuxNumbers(topology), OnlineCpusFromSysfsDirectly());
}

TEST(TopologyTest, DenseIndexAndLinuxNumberRoundTrip) {
  Topology topology;
  ASSERT_TRUE(Topology::Load(&topology).ok());
  ASSERT_GT(topology.size(), 0);
  for (int dense = 0; dense < topology.size(); ++dense) {
    int linux_cpu = topology.cpus()[dense].linux_cpu;
    EXPECT_EQ(topology.DenseIndexOf(linux_cpu), dense);
  }
  EXPECT_EQ(topology.DenseIndexOf(SortedLinuxNumbers(topology).back() + 1), -1);
  EXPECT_EQ(topology.DenseIndexOf(-1), -1);
}

TEST(TopologyTest, EveryCpuHasACoreAndAPackage) {
  Topology topology;
  ASSERT_TRUE(Topology::Load(&topology).ok());
  std::map<int, int> package_of_core;
  for (const CpuInfo &cpu : topology.cpus()) {
    EXPECT_GE(cpu.core, 0) << "CPU " << cpu.linux_cpu;
    EXPECT_GE(cpu.package, 0) << "CPU " << cpu.linux_cpu;
    EXPECT_GE(cpu.numa_node, 0) << "hwloc always has a NUMA node; CPU " << cpu.linux_cpu;
    EXPECT_LT(cpu.core, topology.size());
    EXPECT_LT(cpu.package, topology.size());
    // A core lies in one package: hyperthreads of a core agree on it.
    auto [known, inserted] = package_of_core.emplace(cpu.core, cpu.package);
    if (!inserted) {
      EXPECT_EQ(known->second, cpu.package) << "core " << cpu.core;
    }
  }
}

TEST(TopologyTest, CachedIsOneSnapshotForAllThreads) {
  const Topology *seen[4] = {};
  std::vector<std::thread> threads;
  for (auto &slot : seen) threads.emplace_back([&slot] { slot = &Topology::Cached(); });
  for (std::thread &thread : threads) thread.join();
  for (const Topology *topology : seen) EXPECT_EQ(topology, &Topology::Cached());

  Topology fresh;
  ASSERT_TRUE(Topology::Load(&fresh).ok());
  EXPECT_EQ(LinuxNumbers(Topology::Cached()), LinuxNumbers(fresh));
  EXPECT_GE(Topology::Cached().cpus().front().core, 0) << "Cached() should come from hwloc here";
}

// --- snapshots built from a list ---------------------------------------------

TEST(TopologyTest, FromCpusWithGaps) {
  Topology topology = Topology::FromCpus({Cpu(0), Cpu(2), Cpu(5)});
  EXPECT_EQ(topology.size(), 3);
  EXPECT_EQ(topology.DenseIndexOf(0), 0);
  EXPECT_EQ(topology.DenseIndexOf(2), 1);
  EXPECT_EQ(topology.DenseIndexOf(5), 2);
  EXPECT_EQ(topology.DenseIndexOf(1), -1);
  EXPECT_EQ(topology.DenseIndexOf(3), -1);
  EXPECT_EQ(topology.DenseIndexOf(6), -1);
  EXPECT_EQ(topology.DenseIndexOf(100000), -1);
  EXPECT_EQ(topology.DenseIndexOf(-1), -1);
  EXPECT_EQ(topology.DenseIndexOf(-100000), -1);
}

TEST(TopologyTest, FromCpusKeepsTheOrderAndDropsRepeatsAndNegatives) {
  Topology topology = Topology::FromCpus({Cpu(7, 3, 1), Cpu(-1), Cpu(1, 0, 0), Cpu(7, 2, 0)});
  EXPECT_EQ(LinuxNumbers(topology), (std::vector<int>{7, 1}));
  EXPECT_EQ(topology.cpus()[0].core, 3) << "the first of a repeated number stays";
  EXPECT_EQ(topology.cpus()[0].package, 1);
  EXPECT_EQ(topology.DenseIndexOf(7), 0);
  EXPECT_EQ(topology.DenseIndexOf(1), 1);
}

TEST(TopologyTest, EmptySnapshotKnowsNoCpu) {
  Topology topology = Topology::FromCpus({});
  EXPECT_EQ(topology.size(), 0);
  EXPECT_EQ(topology.DenseIndexOf(0), -1);
}

// --- the sysfs path and the fallback -----------------------------------------

TEST(TopologyTest, SysfsAgreesWithHwlocOnThisMachine) {
  Topology from_sysfs, from_hwloc;
  ASSERT_TRUE(Topology::LoadOnlineCpusFromSysfs(&from_sysfs).ok());
  ASSERT_TRUE(Topology::Load(&from_hwloc).ok());
  EXPECT_EQ(LinuxNumbers(from_sysfs), SortedLinuxNumbers(from_hwloc));
}

TEST(TopologyTest, SysfsReadsTheOnlineListThroughTheKernelSeam) {
  pmapi_test::InstalledKernel kernel;
  kernel.SetFile(kOnlinePath, "0-1,4\n");
  Topology topology;
  ASSERT_TRUE(Topology::LoadOnlineCpusFromSysfs(&topology).ok());
  EXPECT_EQ(LinuxNumbers(topology), (std::vector<int>{0, 1, 4}));
  EXPECT_EQ(topology.DenseIndexOf(4), 2);
  for (const CpuInfo &cpu : topology.cpus()) {
    EXPECT_EQ(cpu.core, -1);  // sysfs's list says nothing about cores
    EXPECT_EQ(cpu.package, -1);
  }
}

TEST(TopologyTest, SysfsFailuresAreKernelErrors) {
  pmapi_test::InstalledKernel kernel;
  Topology topology;

  kernel.FailWith(pmapi_test::FakeKernel::Op::kReadFile, ENOENT, kOnlinePath);
  Status missing = Topology::LoadOnlineCpusFromSysfs(&topology);
  EXPECT_EQ(missing.code(), Pmapi_KernelError);
  EXPECT_NE(missing.detail().find(kOnlinePath), std::string::npos) << missing.detail();

  kernel.SetFile(kOnlinePath, "zero\n");
  Status garbage = Topology::LoadOnlineCpusFromSysfs(&topology);
  EXPECT_EQ(garbage.code(), Pmapi_KernelError);
  EXPECT_NE(garbage.detail().find("zero"), std::string::npos) << garbage.detail();

  kernel.SetFile(kOnlinePath, "\n");
  EXPECT_EQ(Topology::LoadOnlineCpusFromSysfs(&topology).code(), Pmapi_KernelError);
}

TEST(TopologyTest, FallsBackToSysfsWhenHwlocFails) {
  pmapi_test::InstalledKernel kernel;
  kernel.SetFile(kOnlinePath, "0,2-3\n");
  Topology topology = Topology::LoadWithFallback(&FailingLoad);
  EXPECT_EQ(LinuxNumbers(topology), (std::vector<int>{0, 2, 3}));
  EXPECT_EQ(topology.cpus()[0].core, -1);
}

TEST(TopologyTest, EmptyWhenHwlocAndSysfsBothFail) {
  pmapi_test::InstalledKernel kernel;
  kernel.FailWith(pmapi_test::FakeKernel::Op::kReadFile, EACCES, kOnlinePath);
  EXPECT_EQ(Topology::LoadWithFallback(&FailingLoad).size(), 0);
}

TEST(TopologyTest, LoadWithFallbackPrefersTheLoaderGiven) {
  Topology topology = Topology::LoadWithFallback();
  ASSERT_GT(topology.size(), 0);
  EXPECT_GE(topology.cpus()[0].core, 0);
}

// --- the CPU list parser ------------------------------------------------------

TEST(CpuListTest, RangesAndSingletons) {
  EXPECT_EQ(Parse("0-3,5,7-8"), (std::vector<int>{0, 1, 2, 3, 5, 7, 8}));
  EXPECT_EQ(Parse("0"), (std::vector<int>{0}));
  EXPECT_EQ(Parse("5"), (std::vector<int>{5}));
  EXPECT_EQ(Parse("2-2"), (std::vector<int>{2}));
  EXPECT_EQ(Parse("0,2,4"), (std::vector<int>{0, 2, 4}));
  EXPECT_EQ(Parse("10-12"), (std::vector<int>{10, 11, 12}));
}

TEST(CpuListTest, TrailingNewlineAsInSysfs) {
  EXPECT_EQ(Parse("0-1\n"), (std::vector<int>{0, 1}));
  EXPECT_EQ(Parse("0-3,5,7-8\n"), (std::vector<int>{0, 1, 2, 3, 5, 7, 8}));
}

TEST(CpuListTest, EmptyListIsValid) {
  // /sys/devices/system/cpu/offline reads "\n" when every CPU is online.
  EXPECT_TRUE(Parse("\n").empty());
  EXPECT_TRUE(Parse("").empty());
}

TEST(CpuListTest, OutOfOrderAndOverlapsComeOutSortedOnce) {
  EXPECT_EQ(Parse("7,3,3-4,0-1,1"), (std::vector<int>{0, 1, 3, 4, 7}));
}

TEST(CpuListTest, LargeMachines) {
  std::vector<int> cpus = Parse("0-4095\n");
  ASSERT_EQ(cpus.size(), 4096u);
  EXPECT_EQ(cpus.back(), 4095);
  EXPECT_EQ(Parse("65535"), (std::vector<int>{kMaxLinuxCpu}));
}

TEST(CpuListTest, GarbageIsAnErrorAndLeavesNothing) {
  const char *const bad[] = {
      "a",    "0-a", "1,,2",  ",1",   "1,",    "1,\n",    "1-",
      "-1",   "3-1", "1-2-3", "1 ,2", " 1",    "1 ",      "1\n\n",
      "1\nx", "0x1", "1.5",   "1:2",  "65536", "0-65536", "99999999999999999999",
      "\n1",
  };
  for (const char *text : bad) {
    std::vector<int> cpus = {42};
    Status status = ParseCpuList(text, &cpus);
    EXPECT_EQ(status.code(), Pmapi_KernelError) << "\"" << text << "\"";
    EXPECT_TRUE(cpus.empty()) << "\"" << text << "\"";
    EXPECT_NE(status.detail().find("CPU list"), std::string::npos) << status.detail();
  }
}

}  // namespace
}  // namespace pmapi
