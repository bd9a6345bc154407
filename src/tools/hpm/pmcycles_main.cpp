// SPDX-License-Identifier: MIT
// pmcycles: the processor's clock as AIX's pmcycles prints it (docs/man/pmcycles.1): the
// nominal clock from pm_cycles, each CPU's from the library's topology and cpufreq, and the
// current one from the kernel's per-CPU report.
#include <pmapi.h>
#include <pmapi_topology.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cmath>
#include <fstream>
#include <string>
#include <vector>

#include "option_table.h"
#include "tool_messages.h"

namespace {

constexpr int kFailed = 1;

int Mhz(double hz) { return static_cast<int>(std::lround(hz / 1e6)); }

// The nominal clock of Linux CPU `lcpu` in Hz: cpufreq's maximum where the kernel has cpufreq,
// else the machine's (pm_cycles), as on a VM where every CPU runs at the base clock.
double CpuHz(int lcpu, double machine_hz) {
  std::ifstream file("/sys/devices/system/cpu/cpu" + std::to_string(lcpu) +
                     "/cpufreq/cpuinfo_max_freq");
  long long khz = 0;
  if (file >> khz && khz > 0) return static_cast<double>(khz) * 1e3;
  return machine_hz;
}

// The clock the CPUs run at now, averaged: the "cpu MHz" lines of /proc/cpuinfo. 0 if the
// kernel prints none (not every architecture does).
double CurrentHz() {
  std::ifstream file("/proc/cpuinfo");
  std::string line;
  double sum = 0;
  int n = 0;
  while (std::getline(file, line)) {
    if (line.compare(0, 7, "cpu MHz") != 0) continue;
    const size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    sum += atof(line.c_str() + colon + 1);
    ++n;
  }
  return n ? sum / n * 1e6 : 0;
}

int Usage(const std::string &message) { return tools::UsageError("pmcycles", message); }

}  // namespace

int main(int argc, char **argv) {
  bool decrementer = false, each = false, measured = false, help = false, version = false;
  auto flag = [](bool *set) {
    return [set](const std::string &, const std::string &) {
      *set = true;
      return std::string();
    };
  };
  // One row per option (tools::OptionTable): -h lists the same rows.
  const tools::OptionTable table(
      {
          {"", 'm', nullptr, "each processor's clock", flag(&each)},
          {"", 'M', nullptr, "the clock the processors run at now", flag(&measured)},
          {"", 'd', nullptr, "the decrementer (none on Linux: said so)", flag(&decrementer)},
          {"help", 'h', nullptr, nullptr, flag(&help)},
          {"version", 0, nullptr, "the version", flag(&version)},
      },
      10);
  std::vector<std::string> operands;
  const tools::OptionError error =
      table.Parse(std::vector<std::string>(argv + 1, argv + argc), &operands);
  if (error) return Usage(error.message);
  if (help) {
    printf("usage: pmcycles [-d] [-m] [-M]\n  (none)  the nominal processor clock\n%s",
           table.Help().c_str());
    return 0;
  }
  if (version) return tools::PrintVersion("pmcycles");
  if (!operands.empty()) return Usage("takes no operands");
  const double hz = pm_cycles();
  if (hz <= 0) {
    fprintf(stderr,
            "pmcycles: cannot tell the processor clock: neither cpufreq nor "
            "/proc/cpuinfo gives it on this machine\n");
    return kFailed;
  }
  if (each) {
    int count = 0;
    if (pm_get_cpu_count(&count) != 0 || count <= 0) {
      fprintf(stderr, "pmcycles: %s\n", pm_strerror("pm_get_cpu_count", Pmapi_NoInit));
      return kFailed;
    }
    for (int cpu = 0; cpu < count; ++cpu) {
      pm_cpu_topology_t where;
      const int rc = pm_get_cpu_topology(cpu, &where);
      if (rc != 0) {
        fprintf(stderr, "pmcycles: %s\n", pm_strerror("pm_get_cpu_topology", rc));
        return kFailed;
      }
      printf("CPU %d runs at %d MHz\n", where.lcpu, Mhz(CpuHz(where.lcpu, hz)));
    }
  } else {
    printf("This machine runs at %d MHz\n", Mhz(hz));
  }
  if (measured) {
    const double now = CurrentHz();
    if (now > 0) {
      printf("The measured frequency is %d MHz\n", Mhz(now));
    } else {
      printf(
          "The measured frequency: not reported by this kernel (/proc/cpuinfo has no cpu "
          "MHz)\n");
    }
  }
  if (decrementer) {
    printf("The decrementer: none on Linux (read_real_time counts nanoseconds)\n");
  }
  return 0;
}
