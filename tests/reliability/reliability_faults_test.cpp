// SPDX-License-Identifier: MIT
// The fault matrix: every family (system-wide, _mythread, _thread, _mygroup, _group) x every kernel
// call it makes (perf_event_open at set, the enabling ioctl at set, start, stop, the group read in
// get_data and in reset, close at delete) x every errno the kernel may answer. Each case checks the
// code docs/errors.md gives, a message naming the errno, the target and what to do, that no
// descriptor outlives the failure, and that the family still works afterwards (delete, then a
// fresh set and an exact read of calls the target makes, the child of _thread/_group included).
// counting_faults_test.cpp covers the read-content faults on _mythread; reliability_reads_test.cpp
// extends those to every family.
//
// _pgroup is _group with a ptid that must be 0, and _thread's twin _pthread likewise: both go
// through the same code as the families here (src/api/targets.cpp), so they are not repeated.
#include <errno.h>
#include <gtest/gtest.h>
#include <string.h>

#include <string>
#include <tuple>

#include "reliability_families.h"
#include "support/counting.h"
#include "support/enum_names.h"
#include "support/fake_kernel.h"

using namespace pmapi_test;

namespace {

// Where the fault is injected.
enum class Step { kOpen, kEnableAtSet, kStart, kStop, kRead, kReset, kClose };

const char *StepName(Step step) {
  static const char *const kNames[] = {"open", "enable_at_set", "start", "stop",
                                       "read", "reset",         "close"};
  return EnumName(step, kNames);
}

// An errno, the code docs/errors.md maps it to, and a phrase of the advice the message must
// carry.
struct Fault {
  int err;
  int code;
  const char *advice;
};

const Fault kFaults[] = {
    {EMFILE, Pmapi_TooManyFiles, "ulimit -n"},
    {ENFILE, Pmapi_TooManyFiles, "ulimit -n"},
    {ENOMEM, Pmapi_Malloc_Err, "out of memory"},
    {EACCES, Pmapi_Permission, "kernel.perf_event_paranoid is"},
    {EPERM, Pmapi_Permission, "CAP_PERFMON"},
    {ENOENT, Pmapi_NoHardware, "software events and tracepoints still count"},
    {EOPNOTSUPP, Pmapi_NoHardware, "hardware PMU"},
    {EINVAL, Pmapi_KernelError, "Invalid argument"},
    {EBUSY, Pmapi_Busy, "holds the counters exclusively"},
    {EINTR, Pmapi_Interrupted, "try again"},
};

using Case = std::tuple<FamilyKind, Step, int /* index in kFaults */>;

class FaultMatrix : public FamilyFaultTest<Case> {
 protected:
  pm_prog_t Program(bool counting) const {
    return MakeProgram({getppid_, clock_}, PM_USER | PM_KERNEL | (counting ? PM_COUNT : 0));
  }

  FakeKernel kernel_;
};

TEST_P(FaultMatrix, CodeMessageNoLeakAndRecovery) {
  const FamilyKind kind = std::get<0>(GetParam());
  const Step step = std::get<1>(GetParam());
  const Fault &fault = kFaults[std::get<2>(GetParam())];
  Family family(kind);
  ScopedKernel scoped(&kernel_);

  // Arrange the context the step needs, then arm the fault and take the step.
  const bool counting = step != Step::kOpen && step != Step::kStart;
  pm_prog_t prog = Program(counting);
  bool context_survives = true;
  int rc = -1;
  pm_data_t data;
  pm_accu_time_t times;
  switch (step) {
    case Step::kOpen:
      kernel_.FailWith(FakeKernel::Op::kPerfEventOpen, fault.err);
      rc = family.Set(&prog);
      context_survives = false;
      break;
    case Step::kEnableAtSet:
      kernel_.FailWith(FakeKernel::Op::kIoctl, fault.err);
      rc = family.Set(&prog);
      context_survives = false;
      break;
    case Step::kStart:
      ASSERT_EQ(family.Set(&prog), 0) << pm_strerror("set", Pmapi_Permission);
      kernel_.FailWith(FakeKernel::Op::kIoctl, fault.err);
      rc = family.Start();
      break;
    case Step::kStop:
      ASSERT_EQ(family.Set(&prog), 0);
      kernel_.FailWith(FakeKernel::Op::kIoctl, fault.err);
      rc = family.Stop();
      break;
    case Step::kRead:
      ASSERT_EQ(family.Set(&prog), 0);
      kernel_.FailWith(FakeKernel::Op::kRead, fault.err);
      rc = family.Read(&data, &times);
      break;
    case Step::kReset:
      ASSERT_EQ(family.Set(&prog), 0);
      kernel_.FailWith(FakeKernel::Op::kRead, fault.err);
      rc = family.Reset();
      break;
    case Step::kClose:
      ASSERT_EQ(family.Set(&prog), 0);
      kernel_.FailWith(FakeKernel::Op::kClose, fault.err);
      // Linux frees the descriptor whatever close(2) says; there is nothing to retry, so
      // delete succeeds and only the next set would notice a real problem.
      rc = family.Delete();
      EXPECT_EQ(rc, 0) << pm_strerror("delete", rc);
      context_survives = false;
      break;
  }

  if (step != Step::kClose) {
    EXPECT_EQ(rc, fault.code) << strerror(fault.err) << " -> " << pm_strerror("", rc);
    const std::string message = pm_strerror("call", fault.code);
    EXPECT_NE(message.find(strerrorname_np(fault.err)), std::string::npos) << message;
    EXPECT_NE(message.find(fault.advice), std::string::npos) << message;
    EXPECT_NE(message.find(family.TargetWord()), std::string::npos)
        << "names the target: " << message;
    if (step == Step::kOpen) {
      EXPECT_NE(message.find(kGetppid), std::string::npos) << "names the event: " << message;
      EXPECT_NE(message.find("counter 0"), std::string::npos) << message;
    }
  }
  if (!context_survives) {
    EXPECT_EQ(CountPerfDescriptors(), baseline_fds_) << "everything opened was closed";
    EXPECT_EQ(family.Read(&data, &times), Pmapi_NoSetProg) << "no half-built context";
  }
  pm_prog_t got;
  if (step == Step::kStart) {
    // The program stays; the failed start left counting off.
    ASSERT_EQ(family.GetProgram(&got), 0);
    EXPECT_FALSE(got.mode.b.count) << "a failed start leaves counting off";
  } else if (step == Step::kEnableAtSet) {
    // A set whose enabling failed leaves no program at all (nothing half-counting).
    EXPECT_EQ(family.GetProgram(&got), Pmapi_NoSetProg) << "a failed set leaves no program";
  }

  // Recovery: the kernel behaves again; the old context (if any) deletes, and a fresh one
  // counts exactly.
  kernel_.Clear();
  if (context_survives) {
    EXPECT_EQ(family.Delete(), 0) << pm_strerror("delete", Pmapi_KernelError);
  }
  EXPECT_EQ(CountPerfDescriptors(), baseline_fds_) << "delete closed every descriptor";
  prog = Program(true);
  ASSERT_EQ(family.Set(&prog), 0) << pm_strerror("set again", Pmapi_KernelError);
  EXPECT_GT(CountPerfDescriptors(), baseline_fds_);
  // The target (this thread, or the child for _thread/_group) makes exactly 25 calls.
  family.TargetCalls(25);
  ASSERT_EQ(family.Read(&data, &times), 0) << pm_strerror("read", Pmapi_KernelError);
  if (kind == FamilyKind::kSystem) {
    // Machine-wide: every other process's getppid calls count too.
    EXPECT_GE(data.accu[0], 25);
  } else {
    EXPECT_EQ(data.accu[0], 25) << "the recovered context counts the target exactly";
  }
  EXPECT_GT(Nanos(times.accu_timebase), 0u) << "the counters were enabled";
  EXPECT_EQ(family.Delete(), 0);
  EXPECT_EQ(CountPerfDescriptors(), baseline_fds_);
}

std::string CaseName(const ::testing::TestParamInfo<Case> &info) {
  return std::string(FamilyName(std::get<0>(info.param))) + "_" +
         StepName(std::get<1>(info.param)) + "_" +
         strerrorname_np(kFaults[std::get<2>(info.param)].err);
}

INSTANTIATE_TEST_SUITE_P(
    Families, FaultMatrix,
    ::testing::Combine(::testing::Values(FamilyKind::kSystem, FamilyKind::kMyThread,
                                         FamilyKind::kThread, FamilyKind::kMyGroup,
                                         FamilyKind::kGroup),
                       ::testing::Values(Step::kOpen, Step::kEnableAtSet, Step::kStart, Step::kStop,
                                         Step::kRead, Step::kReset, Step::kClose),
                       ::testing::Range(0, static_cast<int>(sizeof kFaults / sizeof kFaults[0]))),
    CaseName);

}  // namespace
