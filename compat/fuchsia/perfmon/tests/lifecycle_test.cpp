// SPDX-License-Identifier: MIT
// Nothing leaks and nothing half-opens: 1,000 full cycles, and every kernel refusal injected
// through the kernel seam comes back as its status with every descriptor closed.
#include <gtest/gtest.h>

#include "base/kernel.h"
#include "perfmon_test_helpers.h"
#include "support/fake_kernel.h"

namespace perfmon_test {
namespace {

TEST(Lifecycle, AThousandCyclesLeakNoDescriptorOrMapping) {
  // Software events (a tracepoint's teardown waits for an RCU grace period): one sampled, with
  // its ring and drain thread, one counted. This process is the target: no privilege needed.
  perfmon_config_t config = Config(
      {{Id("linux:cpu-clock"), 100000, PERFMON_FLAG_COLLECT_PC}, {Id("linux:task-clock"), 0, 0}});
  size_t fds = 0;
  for (int cycle = 0; cycle < 1000; ++cycle) {
    std::unique_ptr<Api> api = OpenApi(cycle % 2 ? "c" : "cpp");
    ASSERT_TRUE(api);
    ASSERT_EQ(api->Initialize(Allocation(1)), ZX_OK);
    ASSERT_EQ(api->SetTarget({getpid(), 0}), ZX_OK);
    ASSERT_EQ(api->StageConfig(config), ZX_OK);
    ASSERT_EQ(api->Start(), ZX_OK) << "cycle " << cycle << ": " << api->LastError();
    // A buffer per CPU and a ring per CPU, seen while running: the count below can see them.
    if (cycle == 0) {
      EXPECT_EQ(EngineMappings(), 2 * NumCpus());
    }
    api->Stop();
    api->Terminate();
    api.reset();
    if (cycle == 1) fds = OpenDescriptors();  // after the first cycles made every lazy thing
    ASSERT_EQ(EngineMappings(), 0u) << "cycle " << cycle;
  }
  EXPECT_EQ(OpenDescriptors(), fds);
}

class Faults : public ::testing::Test {
 protected:
  void SetUp() override { pmapi::SetKernelForTesting(&kernel_); }
  void TearDown() override { pmapi::SetKernelForTesting(nullptr); }
  pmapi_test::FakeKernel kernel_;
};

TEST_F(Faults, EachKernelRefusalHasItsStatusAndClosesEverything) {
  std::unique_ptr<Api> api = OpenApi("cpp");
  ASSERT_TRUE(api);
  ASSERT_EQ(api->Initialize(Allocation(1)), ZX_OK);
  ASSERT_EQ(api->SetTarget({getpid(), 0}), ZX_OK);
  ASSERT_EQ(api->StageConfig(Config({{Id("linux:cpu-clock"), 100000, 0},
                                     {Id("linux:task-clock"), 0, 0},
                                     {Id("linux:page-faults"), 0, 0}})),
            ZX_OK);
  size_t fds = OpenDescriptors();
  struct Case {
    int err;
    zx_status_t status;
  };
  const Case cases[] = {{EACCES, ZX_ERR_ACCESS_DENIED}, {EPERM, ZX_ERR_ACCESS_DENIED},
                        {ENOENT, ZX_ERR_NOT_SUPPORTED}, {EOPNOTSUPP, ZX_ERR_NOT_SUPPORTED},
                        {ESRCH, ZX_ERR_NOT_FOUND},      {EMFILE, ZX_ERR_NO_RESOURCES},
                        {ENOMEM, ZX_ERR_NO_MEMORY},     {EINVAL, ZX_ERR_INVALID_ARGS}};
  for (const Case &c : cases) {
    // Fail the third open: two are open by then, on the first CPU.
    int opens = 0;
    kernel_.SetPerfEventOpenHook([&](const perf_event_attr &) { return ++opens == 3 ? c.err : 0; });
    EXPECT_EQ(api->Start(), c.status) << strerror(c.err);
    EXPECT_NE(api->LastError().find(strerror(c.err)), std::string::npos) << api->LastError();
    EXPECT_EQ(OpenDescriptors(), fds) << strerror(c.err);
    kernel_.Clear();
  }
  // A failed ioctl after the opens too.
  kernel_.FailWith(pmapi_test::FakeKernel::Op::kIoctl, EIO);
  EXPECT_EQ(api->Start(), ZX_ERR_INTERNAL);
  EXPECT_EQ(OpenDescriptors(), fds);
  kernel_.Clear();
  // And then it works.
  EXPECT_EQ(api->Start(), ZX_OK) << api->LastError();
  api->Stop();
}

// A ring the locked-memory limits refuse at every size (EPERM, as the kernel says over
// perf_event_mlock_kb), or out of memory: said so, with every descriptor closed.
TEST_F(Faults, ARingThatCannotBeMappedIsSaidAndClosesEverything) {
  std::unique_ptr<Api> api = OpenApi("c");
  ASSERT_TRUE(api);
  ASSERT_EQ(api->Initialize(Allocation(1)), ZX_OK);
  ASSERT_EQ(api->SetTarget({getpid(), 0}), ZX_OK);
  ASSERT_EQ(api->StageConfig(Config({{Id("linux:cpu-clock"), 100000, 0}})), ZX_OK);
  const size_t fds = OpenDescriptors();
  kernel_.FailWith(pmapi_test::FakeKernel::Op::kMapRing, EPERM);
  EXPECT_EQ(api->Start(), ZX_ERR_ACCESS_DENIED);
  EXPECT_NE(api->LastError().find("mapping its sample ring: Operation not permitted (even 32 KiB "
                                  "is over perf_event_mlock_kb"),
            std::string::npos)
      << api->LastError();
  EXPECT_EQ(OpenDescriptors(), fds);
  kernel_.Clear();
  kernel_.FailWith(pmapi_test::FakeKernel::Op::kMapRing, ENOMEM);
  EXPECT_EQ(api->Start(), ZX_ERR_NO_MEMORY);
  EXPECT_EQ(OpenDescriptors(), fds);
  kernel_.Clear();
  EXPECT_EQ(api->Start(), ZX_OK) << api->LastError();
  api->Stop();
}

}  // namespace
}  // namespace perfmon_test
