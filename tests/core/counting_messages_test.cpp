// SPDX-License-Identifier: MIT
// Failures that used to mislead: each says what went wrong and what to do, with the right code.
#include <gtest/gtest.h>
#include <unistd.h>

#include <string>
#include <thread>

#include "support/child_process.h"
#include "support/counting.h"
#include "support/counting_fixture.h"
#include "support/fake_kernel.h"

using namespace pmapi_test;

namespace {

std::string Message(int code) { return pm_strerror("call", code); }

class Messages : public GetppidTest {};

TEST_F(Messages, APmuThatCannotExcludeAModeSaysWhichBitsToSet) {
  if (access("/sys/bus/event_source/devices/msr/type", R_OK) != 0) {
    GTEST_SKIP() << "this kernel has no msr PMU";
  }
  pm_prog_t prog = MakeProgram({EventId("msr/tsc")}, PM_USER | PM_KERNEL);
  const int rc = pm_set_program_mythread(&prog);
  ASSERT_EQ(rc, Pmapi_NoHardware) << Message(rc);
  const std::string message = Message(rc);
  EXPECT_NE(message.find("msr/tsc"), std::string::npos) << message;
  EXPECT_NE(message.find("mode.b.hypervisor"), std::string::npos) << message;
  EXPECT_EQ(message.find("unexpected"), std::string::npos) << message;

  prog.mode.b.hypervisor = 1;
  EXPECT_EQ(pm_set_program_mythread(&prog), 0) << "the bits the message names are enough";
  EXPECT_EQ(pm_delete_program_mythread(), 0);
}

TEST_F(Messages, TimedSystemWideStartAndStopRefuseANullTime) {
  EXPECT_EQ(pm_tstart(nullptr), Pmapi_InvalidArg);
  EXPECT_NE(Message(Pmapi_InvalidArg).find("time is NULL"), std::string::npos);
  EXPECT_EQ(pm_tstop(nullptr), Pmapi_InvalidArg);
}

TEST_F(Messages, AThreadThatMissedItsInheritedContextSaysWhy) {
  pm_prog_t prog = MakeProgram({getppid_}, PM_USER | PM_KERNEL | PM_COUNT);
  ASSERT_EQ(pm_set_program_mythread(&prog), 0);
  int rc = 0;
  std::string first, second;
  {
    FakeKernel kernel;
    kernel.FailWith(FakeKernel::Op::kPerfEventOpen, EMFILE);
    ScopedKernel scoped(&kernel);
    std::thread([&] {
      pm_data_t data;
      rc = pm_get_data_mythread(&data);
      first = Message(rc);
      // A later failure with the same code must not lose the reason.
      pm_start_mythread();
      second = Message(pm_get_data_mythread(&data));
    }).join();
  }
  EXPECT_EQ(rc, Pmapi_NoSetProg);
  for (const std::string &message : {first, second}) {
    EXPECT_NE(message.find("did not inherit"), std::string::npos) << message;
    EXPECT_NE(message.find("EMFILE"), std::string::npos) << message;
  }
  EXPECT_EQ(pm_delete_program_mythread(), 0);
}

// Linux threads are one kernel thread each: the tid selects the thread and a ptid given with
// it is not checked (docs/counting.md), as AIX programs pass their own pthread numbers there.
TEST_F(Messages, APthreadIdGivenWithATidIsIgnored) {
  CallingChild target;
  ASSERT_TRUE(target.ok());
  const pid_t child = target.pid();
  pm_prog_t prog = MakeProgram({getppid_}, PM_USER | PM_KERNEL | PM_COUNT);
  const ptid_t unrelated_ptid = 4242;
  ASSERT_EQ(pm_set_program_pthread(child, child, unrelated_ptid, &prog), 0);
  ASSERT_TRUE(target.Calls(17));
  pm_data_t data;
  ASSERT_EQ(pm_get_data_pthread(child, child, 1, &data), 0) << "any ptid names the same thread";
  EXPECT_EQ(data.accu[0], 17);
  EXPECT_EQ(pm_delete_program_pthread(child, child, 0), 0);
  EXPECT_EQ(pm_set_program_pthread(child, 0, unrelated_ptid, &prog), Pmapi_Unsupported)
      << "a ptid without a tid names nothing on Linux";
  EXPECT_EQ(target.Finish(), 0);
}

}  // namespace
