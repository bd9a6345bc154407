// SPDX-License-Identifier: MIT
// AIX's rules, each returning its code: no init, no program, program twice,
// stop when not counting, bad events and modes, NULL arguments, and the
// system-wide/thread exclusion.
#include <gtest/gtest.h>

#include <string>
#include <thread>

#include "support/counting.h"
#include "support/counting_fixture.h"

using namespace pmapi_test;

namespace {

TEST(RulesBeforeInit, SetProgramSaysNoInit) {
  // This runs first in the binary (googletest keeps declaration order), before
  // any pm_initialize.
  pm_prog_t prog = MakeProgram({1}, PM_USER);
  EXPECT_EQ(pm_set_program_mythread(&prog), Pmapi_NoInit);
  EXPECT_EQ(pm_set_program(&prog), Pmapi_NoInit);
  EXPECT_NE(std::string(pm_strerror("x", Pmapi_NoInit)).find("pm_initialize"), std::string::npos);
}

class Rules : public GetppidTest {
 protected:
  void TearDown() override {
    pm_delete_program_mythread();
    pm_delete_program();
  }
};

TEST_F(Rules, EveryCallWithoutAProgramSaysNoSetProg) {
  pm_data_t data;
  pm_prog_t prog;
  timebasestruct_t t;
  pm_accu_time_t times;
  EXPECT_EQ(pm_start_mythread(), Pmapi_NoSetProg);
  EXPECT_EQ(pm_stop_mythread(), Pmapi_NoSetProg);
  EXPECT_EQ(pm_reset_data_mythread(), Pmapi_NoSetProg);
  EXPECT_EQ(pm_delete_program_mythread(), Pmapi_NoSetProg);
  EXPECT_EQ(pm_get_data_mythread(&data), Pmapi_NoSetProg);
  EXPECT_EQ(pm_get_tdata_mythread(&data, &t), Pmapi_NoSetProg);
  EXPECT_EQ(pm_get_Tdata_mythread(&data, &times), Pmapi_NoSetProg);
  EXPECT_EQ(pm_get_program_mythread(&prog), Pmapi_NoSetProg);
  EXPECT_EQ(pm_start(), Pmapi_NoSetProg);
  EXPECT_EQ(pm_stop(), Pmapi_NoSetProg);
  EXPECT_EQ(pm_reset_data(), Pmapi_NoSetProg);
  EXPECT_EQ(pm_delete_program(), Pmapi_NoSetProg);
  EXPECT_EQ(pm_get_data(&data), Pmapi_NoSetProg);
  EXPECT_EQ(pm_get_data_cpu(0, &data), Pmapi_NoSetProg);
  EXPECT_EQ(pm_get_data_lcpu(0, &data), Pmapi_NoSetProg);
  EXPECT_EQ(pm_start_thread(getpid(), getpid()), Pmapi_NoSetProg);
  EXPECT_EQ(pm_get_data_thread(getpid(), getpid(), &data), Pmapi_NoSetProg);
  EXPECT_EQ(pm_delete_program_pthread(getpid(), getpid(), 0), Pmapi_NoSetProg);
}

TEST_F(Rules, ProgrammingTwiceSaysContextExistsUntilDeleted) {
  pm_prog_t prog = MakeProgram({getppid_}, PM_USER);
  ASSERT_EQ(pm_set_program_mythread(&prog), 0);
  EXPECT_EQ(pm_set_program_mythread(&prog), Pmapi_ProgExists);
  EXPECT_EQ(Pmapi_ProgExists, 59) << "the value AIX 7 clients test for";
  ASSERT_EQ(pm_delete_program_mythread(), 0);
  EXPECT_EQ(pm_set_program_mythread(&prog), 0) << "delete then retry works";
}

TEST_F(Rules, StopWhenNotCountingHasItsOwnCode) {
  pm_prog_t prog = MakeProgram({getppid_}, PM_USER);
  ASSERT_EQ(pm_set_program_mythread(&prog), 0);
  EXPECT_EQ(pm_stop_mythread(), Pmapi_NotCounting);
  EXPECT_EQ(Pmapi_NotCounting, 85);
  ASSERT_EQ(pm_start_mythread(), 0);
  EXPECT_EQ(pm_start_mythread(), 0) << "starting twice is harmless";
  EXPECT_EQ(pm_stop_mythread(), 0);
  EXPECT_EQ(pm_stop_mythread(), Pmapi_NotCounting);
}

TEST_F(Rules, UnknownEventIsRefusedNamingIdAndCounter) {
  pm_prog_t prog = MakeProgram({getppid_, COUNT_NOTHING, 987654321}, PM_USER);
  EXPECT_EQ(pm_set_program_mythread(&prog), Pmapi_InvalidEvent);
  std::string message = pm_strerror("set", Pmapi_InvalidEvent);
  EXPECT_NE(message.find("987654321"), std::string::npos) << message;
  EXPECT_NE(message.find("counter 2"), std::string::npos) << message;
  pm_data_t data;
  EXPECT_EQ(pm_get_data_mythread(&data), Pmapi_NoSetProg) << "no half-built context";
}

TEST_F(Rules, ModeAndProgramNonsenseIsRefused) {
  pm_prog_t prog = MakeProgram({getppid_}, PM_USER);
  prog.mode.b.threshold = 5;
  EXPECT_EQ(pm_set_program_mythread(&prog), Pmapi_Threshold);
  prog = MakeProgram({getppid_}, 0);
  EXPECT_EQ(pm_set_program_mythread(&prog), Pmapi_NoDomain);
  EXPECT_NE(std::string(pm_strerror("", Pmapi_NoDomain)).find("PM_USER"), std::string::npos);
  prog = MakeProgram({}, PM_USER);
  EXPECT_EQ(pm_set_program_mythread(&prog), Pmapi_NoEvents);
  EXPECT_EQ(pm_set_program_mythread(nullptr), Pmapi_InvalidArg);
  EXPECT_EQ(pm_set_program(nullptr), Pmapi_InvalidArg);
  EXPECT_EQ(pm_set_program_thread(getpid(), getpid(), nullptr), Pmapi_InvalidArg);
}

TEST_F(Rules, IrrelevantModeBitsAreIgnored) {
  // IPM sets proctree on a _mythread program; AIX ignores it.
  pm_prog_t prog = MakeProgram({getppid_}, PM_USER | PM_PROCTREE | PM_PROCESS | PM_COUNT);
  prog.mode.b.nointerrupt = 1;
  ASSERT_EQ(pm_set_program_mythread(&prog), 0);
  CallGetppid(3);
  pm_data_t data;
  ASSERT_EQ(pm_get_data_mythread(&data), 0);
  EXPECT_EQ(data.accu[0], 3);
}

TEST_F(Rules, NullOutputPointersGetACode) {
  pm_prog_t prog = MakeProgram({getppid_}, PM_USER);
  ASSERT_EQ(pm_set_program_mythread(&prog), 0);
  EXPECT_EQ(pm_get_data_mythread(nullptr), Pmapi_InvalidArg);
  EXPECT_EQ(pm_get_tdata_mythread(nullptr, nullptr), Pmapi_InvalidArg);
  EXPECT_EQ(pm_get_Tdata_mythread(nullptr, nullptr), Pmapi_InvalidArg);
  EXPECT_EQ(pm_get_program_mythread(nullptr), Pmapi_InvalidArg);
  EXPECT_EQ(pm_tstart_mythread(nullptr), Pmapi_InvalidArg);
  EXPECT_EQ(pm_tstop_mythread(nullptr), Pmapi_InvalidArg);
}

TEST_F(Rules, SystemWideAndThreadContextsExcludeEachOther) {
  pm_prog_t prog = MakeProgram({getppid_}, PM_USER | PM_KERNEL);
  ASSERT_EQ(pm_set_program_mythread(&prog), 0);
  EXPECT_EQ(pm_set_program(&prog), Pmapi_SysThreadConflict);
  ASSERT_EQ(pm_delete_program_mythread(), 0);
  ASSERT_EQ(pm_set_program(&prog), 0) << pm_strerror("pm_set_program", Pmapi_Permission);
  EXPECT_EQ(pm_set_program_mythread(&prog), Pmapi_SysThreadConflict);
  int other_thread_rc = -1;
  std::thread([&] { other_thread_rc = pm_set_program_mythread(&prog); }).join();
  EXPECT_EQ(other_thread_rc, Pmapi_SysThreadConflict);
  EXPECT_EQ(pm_set_program_thread(getpid(), getpid(), &prog), Pmapi_SysThreadConflict);
  EXPECT_EQ(pm_set_program(&prog), Pmapi_ProgExists);
  ASSERT_EQ(pm_delete_program(), 0);
}

TEST_F(Rules, FailuresKeepTheirDetailPerThread) {
  pm_prog_t bad = MakeProgram({424242}, PM_USER);
  ASSERT_EQ(pm_set_program_mythread(&bad), Pmapi_InvalidEvent);
  std::string other_thread_message;
  std::thread([&] { other_thread_message = pm_strerror("", Pmapi_InvalidEvent); }).join();
  EXPECT_EQ(other_thread_message.find("424242"), std::string::npos)
      << "another thread's failure is not this thread's";
  EXPECT_NE(std::string(pm_strerror("", Pmapi_InvalidEvent)).find("424242"), std::string::npos);
}

}  // namespace
