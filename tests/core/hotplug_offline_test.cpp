// SPDX-License-Identifier: MIT
// CPU hotplug on the real machine: a CPU goes offline between pm_set_program and the read.
// Off by default because it takes a CPU of the machine away for a moment; run it with
//   PMAPI_TEST_HOTPLUG=1 ctest -R Hotplug --output-on-failure      (as root)
// Without the variable it reports itself skipped, saying why. The steps run in a forked child
// so that the parent puts the CPU back online whatever happens to them, a crash included.
// (reliability_reads_test.cpp checks the same logic on every machine through the kernel seam.)
#include <gtest/gtest.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <thread>

#include "support/counting.h"

using namespace pmapi_test;

namespace {

std::string OnlinePath(int cpu) {
  return "/sys/devices/system/cpu/cpu" + std::to_string(cpu) + "/online";
}

bool SetOnline(int cpu, bool online) {
  FILE *file = fopen(OnlinePath(cpu).c_str(), "we");
  if (!file) return false;
  const bool written = fputs(online ? "1" : "0", file) >= 0;
  return fclose(file) == 0 && written;
}

int IsOnline(int cpu) {
  FILE *file = fopen(OnlinePath(cpu).c_str(), "re");
  if (!file) return -1;
  int value = -1;
  if (fscanf(file, "%d", &value) != 1) value = -1;
  fclose(file);
  return value;
}

// The highest-numbered online CPU that can be taken offline (cpu0 usually cannot), or -1.
int PickVictim() {
  for (int cpu = static_cast<int>(sysconf(_SC_NPROCESSORS_CONF)) - 1; cpu > 0; --cpu) {
    if (IsOnline(cpu) == 1 && access(OnlinePath(cpu).c_str(), W_OK) == 0) return cpu;
  }
  return -1;
}

// Puts the CPU back online when the test ends, however it ends.
class OnlineAgain {
 public:
  explicit OnlineAgain(int cpu) : cpu_(cpu) {}
  ~OnlineAgain() {
    if (IsOnline(cpu_) != 1 && !SetOnline(cpu_, true)) {
      ADD_FAILURE() << "could not put CPU " << cpu_ << " back online: do it by hand ("
                    << OnlinePath(cpu_) << ")";
    }
  }

 private:
  int cpu_;
};

void Sleep(int ms) { std::this_thread::sleep_for(std::chrono::milliseconds(ms)); }

// In the child: exits with `code`, printing `what` and the library's message, unless `ok`.
void Check(bool ok, int code, const std::string &what, int rc = 0) {
  if (ok) return;
  fprintf(stderr, "step %d failed: %s (rc %d: %s)\n", code, what.c_str(), rc, pm_strerror("", rc));
  _exit(code);
}

TEST(Hotplug, OfflineCpuFailsItsOwnReadsWhileTheOthersCount) {
  if (getenv("PMAPI_TEST_HOTPLUG") == nullptr || std::string(getenv("PMAPI_TEST_HOTPLUG")) != "1") {
    GTEST_SKIP() << "not run: it takes a CPU of this machine offline for a moment; set "
                    "PMAPI_TEST_HOTPLUG=1 (as root) to run it";
  }
  if (geteuid() != 0) GTEST_SKIP() << "offlining a CPU needs root";
  if (!InitializeAll()) return;
  const int victim = PickVictim();
  if (victim <= 0) {
    GTEST_SKIP() << "no CPU here can be taken offline (needs two online CPUs and a writable "
                    "/sys/devices/system/cpu/cpuN/online)";
  }
  const int clock = EventId("cpu-clock");
  OnlineAgain guard(victim);

  const int status = InChild([&] {
    pm_prog_t prog = MakeProgram({clock}, PM_USER | PM_KERNEL | PM_COUNT);
    int rc = pm_set_program(&prog);
    Check(rc == 0, 1, "pm_set_program", rc);
    Sleep(20);
    pm_data_t data;
    rc = pm_get_data_lcpu(victim, &data);
    Check(rc == 0, 2, "read before offline", rc);
    Check(SetOnline(victim, false), 3, "offline CPU " + std::to_string(victim));
    Sleep(50);
    rc = pm_get_data_lcpu(victim, &data);
    Check(rc == Pmapi_CpuNotCounted, 4, "read of the offline CPU", rc);
    const std::string message = pm_strerror("", rc);
    Check(message.find("CPU " + std::to_string(victim) + " went offline") != std::string::npos, 5,
          "message: " + message, rc);
    // CPU 0 (never offline here) keeps counting: cpu-clock advances between two reads.
    pm_data_t first, second;
    rc = pm_get_data_lcpu(0, &first);
    Check(rc == 0, 6, "read CPU 0", rc);
    Sleep(10);
    rc = pm_get_data_lcpu(0, &second);
    Check(rc == 0, 7, "read CPU 0 again", rc);
    Check(second.accu[0] > first.accu[0], 8, "CPU 0 keeps counting");
    rc = pm_get_data(&data);
    Check(rc == 0, 9, "the total", rc);
    // A program set while the CPU is offline does not count it, and says so.
    rc = pm_delete_program();
    Check(rc == 0, 10, "delete", rc);
    rc = pm_set_program(&prog);
    Check(rc == 0, 11, "set while offline", rc);
    rc = pm_get_data_lcpu(victim, &data);
    Check(rc == Pmapi_CpuNotCounted, 12, "read of a CPU offline at set", rc);
    rc = pm_get_data_lcpu(0, &data);
    Check(rc == 0, 13, "read CPU 0", rc);
    rc = pm_delete_program();
    Check(rc == 0, 14, "delete", rc);
    // Back online: a program set before an offline still reports the CPU, a new one counts it.
    Check(SetOnline(victim, true), 25, "online");
    rc = pm_set_program(&prog);
    Check(rc == 0, 15, "set", rc);
    Check(SetOnline(victim, false), 16, "offline again");
    Check(SetOnline(victim, true), 17, "online again");
    Sleep(30);
    rc = pm_get_data_lcpu(victim, &data);
    Check(rc == Pmapi_CpuNotCounted, 18, "read after offline and online", rc);
    Check(std::string(pm_strerror("", rc)).find("was offline for a while") != std::string::npos, 19,
          "message after it came back", rc);
    rc = pm_delete_program();
    Check(rc == 0, 20, "delete", rc);
    rc = pm_set_program(&prog);
    Check(rc == 0, 21, "set after it came back", rc);
    Sleep(10);
    rc = pm_get_data_lcpu(victim, &data);
    Check(rc == 0 && data.accu[0] > 0, 22, "a new program counts the CPU again", rc);
    Check(pm_delete_program() == 0, 23, "delete");
    Check(CountPerfDescriptors() == 0, 24, "no descriptor left");
    _exit(0);
  });
  EXPECT_EQ(status, 0) << "the child's stderr above says which step failed";
}

}  // namespace
