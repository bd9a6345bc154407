// SPDX-License-Identifier: MIT
// User-space counter reads on aarch64; on POWER, where perf gives user space no counter, every
// read is one read(2), sysctl or not. With kernel.perf_user_access=1, pm_get_data_mythread
// reads PMEVCNTR<n>_EL0 / PMCCNTR_EL0 at the perf page's index: 1,000 reads make no read(2)
// (counted with the syscalls:sys_enter_read tracepoint), and what they give is what read(2)
// gives (the loop's exact count, and the read(2) right after within the instructions between
// the two). With the sysctl at 0 the kernel gives the page no index and every read is one
// read(2) of the group.
#include <gtest/gtest.h>
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>

#include "guest_support.h"

using namespace pmu_guest;

namespace {

// A counter of this thread's read(2) calls, or -1.
int OpenReadCounter() {
  std::ifstream id_file("/sys/kernel/tracing/events/syscalls/sys_enter_read/id");
  long long id = -1;
  if (!(id_file >> id)) return -1;
  perf_event_attr attr = {};
  attr.size = sizeof attr;
  attr.type = PERF_TYPE_TRACEPOINT;
  attr.config = static_cast<unsigned long long>(id);
  attr.disabled = 1;
  return static_cast<int>(syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC));
}

bool SetUserAccess(int value) {
  std::ofstream sysctl("/proc/sys/kernel/perf_user_access");
  sysctl << value << "\n";
  sysctl.close();
  return !sysctl.fail();
}

// The read(2) calls of 1,000 pm_get_data_mythread while the program counts; `data` the last.
long long ReadCallsOfAThousandReads(pm_data_t *data) {
  const int reads = OpenReadCounter();
  EXPECT_GE(reads, 0) << "syscalls:sys_enter_read cannot be counted";
  if (reads < 0) return -1;
  EXPECT_EQ(pm_get_data_mythread(data), 0);  // warm-up
  EXPECT_EQ(ioctl(reads, PERF_EVENT_IOC_ENABLE, 0), 0);
  for (int i = 0; i < 1000; ++i) EXPECT_EQ(pm_get_data_mythread(data), 0);
  EXPECT_EQ(ioctl(reads, PERF_EVENT_IOC_DISABLE, 0), 0);
  long long counted = -1;
  EXPECT_EQ(read(reads, &counted, sizeof counted), static_cast<ssize_t>(sizeof counted));
  close(reads);
  return counted;
}

// With kernel.perf_user_access at `value`, the read(2) calls of 1,000 reads of a counting
// program of the loop's two events, printed; -1 and a failure when either could not be set.
long long ReadCallsWithUserAccess(int value, pm_data_t *data) {
  // POWER has no such sysctl: its kernel gives user space no counter through perf at all.
  if (!kPower && !SetUserAccess(value)) {
    ADD_FAILURE() << "no /proc/sys/kernel/perf_user_access (Linux 5.17 on)";
    return -1;
  }
  pm_prog_t prog = MakeProgram({EventId("PM_INST_CMPL"), EventId("PM_CYC")}, PM_USER | PM_COUNT);
  const int rc = pm_set_program_mythread(&prog);
  if (rc != 0) {
    ADD_FAILURE() << pm_strerror("pm_set_program_mythread", rc);
    return -1;
  }
  const long long calls = ReadCallsOfAThousandReads(data);
  printf("perf_user_access=%d: %lld read(2) calls for 1000 reads\n", value, calls);
  return calls;
}

class UserSpaceReadHardware : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(Initialize()); }
  void TearDown() override {
    pm_delete_program_mythread();
    if (!kPower) SetUserAccess(0);
  }
};

TEST_F(UserSpaceReadHardware, WithoutPerfUserAccessEveryReadIsOneReadSystemCall) {
  pm_data_t data;
  const long long calls = ReadCallsWithUserAccess(0, &data);
  ASSERT_GE(calls, 0);
  EXPECT_EQ(calls, 1000) << "pm_get_data_mythread's read(2) calls";
  EXPECT_GT(data.accu[0], 0);
}

TEST_F(UserSpaceReadHardware, WithPerfUserAccessReadsMakeNoSystemCallAndAgreeWithRead) {
  if (kPower) GTEST_SKIP() << "POWER's perf pages give user space no counter index: read(2) it is";
  pm_data_t data;
  const long long calls = ReadCallsWithUserAccess(1, &data);
  ASSERT_GE(calls, 0);
  EXPECT_EQ(calls, 0) << "pm_get_data_mythread's read(2) calls";

  // The loop, read from user space while counting: exact, as read(2) gives it when stopped.
  const Family running{pm_reset_data_mythread, pm_start_mythread, [] { return 0; },
                       pm_get_data_mythread};
  const LoopRuns runs = RunShortAndLong(running, Loop);
  PrintDifference("user-space reads of the loop", runs, kLoopDifference);
  EXPECT_EQ(runs.Difference(0), kLoopDifference) << "PM_INST_CMPL";
  EXPECT_EQ(runs.Difference(1), kLoopDifference) << "PM_CYC";

  // One user-space read, then a stop and a read(2) (a stopped counter has no index): the second
  // is the first plus the user-mode instructions between them, a few hundred.
  pm_data_t from_page, from_read;
  ASSERT_EQ(pm_get_data_mythread(&from_page), 0);
  ASSERT_EQ(pm_stop_mythread(), 0);
  ASSERT_EQ(pm_get_data_mythread(&from_read), 0);
  printf("user-space read %lld, then read(2) %lld after the stop\n", from_page.accu[0],
         from_read.accu[0]);
  for (int counter = 0; counter < 2; ++counter) {
    EXPECT_GT(from_read.accu[counter], from_page.accu[counter]) << counter;
    EXPECT_LT(from_read.accu[counter], from_page.accu[counter] + 2000) << counter;
  }
}

// What POWER's perf page offers user space for a counting PM_INST_CMPL: no rdpmc capability, so
// the library reads with read(2) there (it builds user-space reads for x86 and aarch64 only).
TEST_F(UserSpaceReadHardware, PowersPerfPageOffersNoUserSpaceCounter) {
  if (!kPower) GTEST_SKIP() << "POWER's perf page";
  perf_event_attr attr = {};
  attr.size = sizeof attr;
  attr.type = PERF_TYPE_RAW;
  attr.config = 0x2;  // PM_INST_CMPL
  attr.exclude_kernel = 1;
  const int fd =
      static_cast<int>(syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC));
  ASSERT_GE(fd, 0);
  void *page =
      mmap(nullptr, static_cast<size_t>(sysconf(_SC_PAGESIZE)), PROT_READ, MAP_SHARED, fd, 0);
  ASSERT_NE(page, MAP_FAILED);
  Loop(kShortLoop);
  const auto *header = static_cast<const perf_event_mmap_page *>(page);
  printf("POWER perf page: cap_user_rdpmc %u, index %u, pmc_width %u\n",
         static_cast<unsigned>(header->cap_user_rdpmc), header->index,
         static_cast<unsigned>(header->pmc_width));
  EXPECT_EQ(header->cap_user_rdpmc, 0u);
  munmap(page, static_cast<size_t>(sysconf(_SC_PAGESIZE)));
  close(fd);
}

}  // namespace
