// SPDX-License-Identifier: MIT
// Fuchsia's own mode: the whole machine, every CPU (root or CAP_PERFMON). Counted on a system
// call nobody else's tests make, under the suite's machine-wide lock.
#include <gtest/gtest.h>

#include "perfmon_test_helpers.h"
#include "support/counting.h"

namespace perfmon_test {
namespace {

TEST(SystemWide, CountsARareSyscallOnEveryCpuExactly) {
  std::unique_ptr<Api> api = OpenApi("c");
  ASSERT_TRUE(api);
  std::string name = std::string("tracepoint:") + pmapi_test::kRareSyscall;
  perfmon_event_id_t rare = Id(name.c_str());
  ASSERT_NE(rare, 0);
  ASSERT_EQ(api->Initialize(Allocation(4)), ZX_OK);
  ASSERT_EQ(api->StageConfig(Config({{rare, 0, 0}, {Id("linux:cpu-clock"), 1000000, 0}})), ZX_OK);
  zx_status_t status = api->Start();
  if (geteuid() != 0 && status == ZX_ERR_ACCESS_DENIED) {
    EXPECT_NE(api->LastError().find("CAP_PERFMON"), std::string::npos);
    GTEST_SKIP() << "system-wide tracing needs root: " << api->LastError();
  }
  ASSERT_EQ(status, ZX_OK) << api->LastError();
  pmapi_test::CallRareSyscall(321);
  api->Stop();
  Buffers buffers = ReadBuffers(api.get());
  ASSERT_EQ(buffers.status, ZX_OK);
  EXPECT_EQ(buffers.CountOf(PERFMON_RECORD_COUNT, rare), NumCpus());
  EXPECT_EQ(buffers.SumOf(PERFMON_RECORD_COUNT, rare), 321u);
}

}  // namespace
}  // namespace perfmon_test
