// SPDX-License-Identifier: MIT
// pm_cycles and the sources of the nominal clock behind it, each faked in
// turn through the kernel seam.
#include <errno.h>
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "base/kernel.h"
#include "pmapi.h"
#include "support/fake_kernel.h"
#include "topology/cpu_frequency.h"

namespace pmapi {
namespace {

constexpr char kMaxFreqPath[] = "/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq";
constexpr char kCpuInfoPath[] = "/proc/cpuinfo";

// An x86 /proc/cpuinfo excerpt, two CPUs.
constexpr char kX86CpuInfo[] =
    "processor\t: 0\n"
    "vendor_id\t: AuthenticAMD\n"
    "model name\t: AMD EPYC\n"
    "cpu MHz\t\t: 2445.428\n"
    "cache size\t: 512 KB\n"
    "\n"
    "processor\t: 1\n"
    "cpu MHz\t\t: 1800.000\n";

// An arm64 /proc/cpuinfo has no clock at all.
constexpr char kArm64CpuInfo[] =
    "processor\t: 0\n"
    "BogoMIPS\t: 50.00\n"
    "Features\t: fp asimd evtstrm\n"
    "CPU implementer\t: 0x41\n";

bool Readable(const char *path) { return std::ifstream(path).good(); }

TEST(CyclesTest, PositiveOnThisMachine) {
  bool has_cpufreq = Readable(kMaxFreqPath);
  std::ifstream cpuinfo(kCpuInfoPath);
  bool has_cpu_mhz = false;
  for (std::string line; std::getline(cpuinfo, line);) {
    if (line.rfind("cpu MHz", 0) == 0) has_cpu_mhz = true;
  }
  if (!has_cpufreq && !has_cpu_mhz) GTEST_SKIP() << "neither cpufreq nor cpu MHz on this machine";
  RecordProperty("source", has_cpufreq ? "cpufreq" : "/proc/cpuinfo");

  double hz = pm_cycles();
  EXPECT_GT(hz, 1e8);   // above 100 MHz
  EXPECT_LT(hz, 1e11);  // below 100 GHz
  EXPECT_EQ(pm_cycles(), hz) << "computed once";
}

TEST(CyclesTest, ThisMachinesSourceIsTheOneExpected) {
  double hz = NominalCpuHz();
  if (Readable(kMaxFreqPath)) {
    std::ifstream file(kMaxFreqPath);
    double khz = 0;
    file >> khz;
    EXPECT_EQ(hz, khz * 1e3);
  } else {
    // No cpufreq (usual in VMs): the /proc/cpuinfo path must carry the answer
    // wherever the kernel prints "cpu MHz" (x86).
#if defined(__x86_64__) || defined(__i386__)
    EXPECT_GT(hz, 0);
#endif
  }
}

TEST(CyclesTest, CpufreqMaxWins) {
  pmapi_test::InstalledKernel kernel;
  kernel.SetFile(kMaxFreqPath, "3400000\n");
  kernel.SetFile(kCpuInfoPath, kX86CpuInfo);
  EXPECT_DOUBLE_EQ(NominalCpuHz(), 3.4e9);
}

TEST(CyclesTest, CpuInfoWhenNoCpufreq) {
  pmapi_test::InstalledKernel kernel;
  kernel.FailWith(pmapi_test::FakeKernel::Op::kReadFile, ENOENT, kMaxFreqPath);
  kernel.SetFile(kCpuInfoPath, kX86CpuInfo);
  EXPECT_DOUBLE_EQ(NominalCpuHz(), 2445.428e6);  // the first CPU's line
}

TEST(CyclesTest, CpuInfoWhenCpufreqIsUnreadable) {
  pmapi_test::InstalledKernel kernel;
  kernel.SetFile(kCpuInfoPath, kX86CpuInfo);
  for (const char *bad : {"", "\n", "0\n", "-5\n", "fast\n", "3400000 kHz\n"}) {
    kernel.SetFile(kMaxFreqPath, bad);
    EXPECT_DOUBLE_EQ(NominalCpuHz(), 2445.428e6) << "cpuinfo_max_freq \"" << bad << "\"";
  }
}

TEST(CyclesTest, ZeroWhenNoSourceSaysAnything) {
  pmapi_test::InstalledKernel kernel;
  kernel.FailWith(pmapi_test::FakeKernel::Op::kReadFile, ENOENT, kMaxFreqPath);

  kernel.FailWith(pmapi_test::FakeKernel::Op::kReadFile, EACCES, kCpuInfoPath);
  EXPECT_EQ(NominalCpuHz(), 0.0) << "both unreadable";

  kernel.SetFile(kCpuInfoPath, kArm64CpuInfo);
  EXPECT_EQ(NominalCpuHz(), 0.0) << "cpuinfo without cpu MHz";

  kernel.SetFile(kCpuInfoPath, "cpu MHz\t\t: unknown\n");
  EXPECT_EQ(NominalCpuHz(), 0.0) << "cpu MHz not a number";

  kernel.SetFile(kCpuInfoPath, "cpu MHz dynamic : 5200\n");
  EXPECT_EQ(NominalCpuHz(), 0.0) << "a different key that starts alike";
}

}  // namespace
}  // namespace pmapi
