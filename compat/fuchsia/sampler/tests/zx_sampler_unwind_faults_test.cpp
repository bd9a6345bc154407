// SPDX-License-Identifier: MIT
// zx_sampler_set_unwind through the kernel seam (tests/support/fake_kernel.h), with the
// sampler's sources compiled into the test: what a DWARF session asks perf_event_open for
// (the registers libdw starts from, the stack copy), and the kernel's refusals, each with a
// sentence that says what to do.
#include <errno.h>
#include <gtest/gtest.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <asm/perf_regs.h>

#include <mutex>
#include <string>
#include <vector>

#include "base/kernel.h"
#include "support/fake_kernel.h"
#include "zircon/sampler-linux.h"
#include "zircon/syscalls-next.h"

namespace {

zx_handle_t Self() { return static_cast<zx_handle_t>(syscall(SYS_gettid)); }

class UnwindFaults : public ::testing::Test {
 protected:
  void SetUp() override {
    pmapi::SetKernelForTesting(&kernel_);
    zx_sampler_config_t config{};
    config.period = 100000;
    config.buffer_size = 1 << 20;
    ASSERT_EQ(zx_sampler_create(0, 0, &config, &session_), ZX_OK) << zx_sampler_last_error();
  }
  void TearDown() override {
    zx_handle_close(session_);
    pmapi::SetKernelForTesting(nullptr);
  }
  // The sampling events opened (not the rings' dummy anchors).
  std::vector<perf_event_attr> SamplingAttrs() {
    std::lock_guard<std::mutex> lock(mutex_);
    return sampling_;
  }
  void Refuse(int err) {
    kernel_.SetPerfEventOpenHook([this, err](const perf_event_attr& attr) {
      if (attr.sample_period == 0) return 0;
      std::lock_guard<std::mutex> lock(mutex_);
      sampling_.push_back(attr);
      return err;
    });
  }

  pmapi_test::FakeKernel kernel_;
  zx_handle_t session_ = ZX_HANDLE_INVALID;
  std::mutex mutex_;
  std::vector<perf_event_attr> sampling_;
};

TEST_F(UnwindFaults, ADwarfSessionAsksForTheRegistersAndTheStackCopy) {
#if !defined(__x86_64__)
  GTEST_SKIP() << "the register mask checked is x86-64's";
#else
  Refuse(0);
  ASSERT_EQ(zx_sampler_set_unwind(session_, ZX_SAMPLER_UNWIND_DWARF, 4096), ZX_OK);
  ASSERT_EQ(zx_sampler_attach(session_, Self()), ZX_OK) << zx_sampler_last_error();
  std::vector<perf_event_attr> attrs = SamplingAttrs();
  ASSERT_FALSE(attrs.empty());
  for (const perf_event_attr& attr : attrs) {
    EXPECT_TRUE(attr.sample_type & PERF_SAMPLE_REGS_USER);
    EXPECT_TRUE(attr.sample_type & PERF_SAMPLE_STACK_USER);
    EXPECT_TRUE(attr.sample_type & PERF_SAMPLE_CALLCHAIN);  // kept for code without CFI
    EXPECT_EQ(attr.sample_stack_user, 4096u);
    for (int reg : {PERF_REG_X86_IP, PERF_REG_X86_SP, PERF_REG_X86_BP})
      EXPECT_TRUE(attr.sample_regs_user & (uint64_t{1} << reg)) << reg;
    EXPECT_TRUE(attr.mmap2 && attr.comm && attr.comm_exec && attr.task);  // the mappings
  }
#endif
}

TEST_F(UnwindFaults, FramePointersAskForNeither) {
  Refuse(0);
  ASSERT_EQ(zx_sampler_attach(session_, Self()), ZX_OK) << zx_sampler_last_error();
  for (const perf_event_attr& attr : SamplingAttrs()) {
    EXPECT_FALSE(attr.sample_type & (PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER));
    EXPECT_EQ(attr.sample_stack_user, 0u);
  }
}

TEST_F(UnwindFaults, AKernelThatRefusesTheCopySaysToUseFramePointers) {
#if !defined(__x86_64__) && !defined(__aarch64__)
  GTEST_SKIP() << "DWARF unwinding is x86-64 and aarch64 only";
#endif
  ASSERT_EQ(zx_sampler_set_unwind(session_, ZX_SAMPLER_UNWIND_DWARF, 0), ZX_OK);
  for (int err : {EINVAL, ENOSYS, EOPNOTSUPP}) {
    Refuse(err);
    EXPECT_EQ(zx_sampler_attach(session_, Self()), ZX_ERR_NOT_SUPPORTED) << err;
    const std::string message = zx_sampler_last_error();
    EXPECT_NE(message.find("DWARF unwinding"), std::string::npos) << message;
    EXPECT_NE(message.find("frame pointers"), std::string::npos) << message;
  }
}

TEST_F(UnwindFaults, PerfEventParanoidIsNamedAsWithFramePointers) {
#if !defined(__x86_64__) && !defined(__aarch64__)
  GTEST_SKIP() << "DWARF unwinding is x86-64 and aarch64 only";
#endif
  ASSERT_EQ(zx_sampler_set_unwind(session_, ZX_SAMPLER_UNWIND_DWARF, 0), ZX_OK);
  Refuse(EACCES);
  EXPECT_EQ(zx_sampler_attach(session_, Self()), ZX_ERR_ACCESS_DENIED);
  const std::string message = zx_sampler_last_error();
  EXPECT_NE(message.find("perf_event_paranoid"), std::string::npos) << message;
}

}  // namespace
