// User-space counter reads on aarch64: not built yet (src/base/kernel.h, kUserSpaceReadBuilt),
// so every pm_get_data_mythread is one read(2) of the group, whatever kernel.perf_user_access
// says. Counted here with the syscalls:sys_enter_read tracepoint, so that the day the aarch64
// path lands (docs/hardware.md) this test is the one to turn around.
#include <gtest/gtest.h>
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

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

TEST(UserSpaceReadHardware, EveryMyThreadReadIsOneReadSystemCall) {
  ASSERT_TRUE(Initialize());
  pm_prog_t prog = Program({EventId("PM_INST_CMPL"), EventId("PM_CYC")}, PM_USER | PM_COUNT);
  ASSERT_EQ(pm_set_program_mythread(&prog), 0) << pm_strerror("pm_set_program_mythread", 0);
  const int reads = OpenReadCounter();
  ASSERT_GE(reads, 0) << "syscalls:sys_enter_read cannot be counted";
  pm_data_t data;
  ASSERT_EQ(pm_get_data_mythread(&data), 0);  // warm-up
  ASSERT_EQ(ioctl(reads, PERF_EVENT_IOC_ENABLE, 0), 0);
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(pm_get_data_mythread(&data), 0);
  ASSERT_EQ(ioctl(reads, PERF_EVENT_IOC_DISABLE, 0), 0);
  long long counted = -1;
  ASSERT_EQ(read(reads, &counted, sizeof counted), static_cast<ssize_t>(sizeof counted));
  close(reads);
  EXPECT_EQ(counted, 1000) << "pm_get_data_mythread's read(2) calls";
  EXPECT_GT(data.accu[0], 0);
  pm_delete_program_mythread();
}

}  // namespace
