// SPDX-License-Identifier: MIT
// Every counting family × every leader kind and order × the start/stop/reset sequences a
// client makes, with exact counts. The counted event is the tracepoint of a system call that
// nothing else on the machine makes (support/counting.h, kRareSyscall), so even the system-wide
// family can be exact; this binary shares the machine-wide tests' ctest lock.
#include <gtest/gtest.h>
#include <unistd.h>

#include <string>
#include <tuple>

#include "support/child_process.h"
#include "support/counting.h"
#include "support/enum_names.h"
#include "support/family_entry_points.h"

using namespace pmapi_test;

namespace {

constexpr const char kSoftwareEvent[] = "task-clock";
constexpr const char kMsrEvent[] = "msr/tsc";

enum class Scope {
  kSystem,
  kProcTree,
  kMyThread,
  kThread,
  kPThread,
  kMyGroup,
  kGroup,
  kPGroup,
  kMyProcessGroup,
  kProcessGroup,
};

const char *ScopeName(Scope scope) {
  static const char *const kNames[] = {"system_wide",     "proctree",     "mythread", "thread",
                                       "pthread",         "mygroup",      "group",    "pgroup",
                                       "mygroup_process", "group_process"};
  return EnumName(scope, kNames);
}

bool IsRemote(Scope scope) {
  return scope == Scope::kThread || scope == Scope::kPThread || scope == Scope::kGroup ||
         scope == Scope::kPGroup || scope == Scope::kProcessGroup;
}

// Which events the program holds, in counter order; the tracepoint is always counted.
enum class Layout {
  kTracepointAlone,
  kSoftwareLeads,
  kTracepointLeadsSoftware,
  kMsrLeads,
  kTracepointLeadsMsr,
};

const char *LayoutName(Layout layout) {
  static const char *const kNames[] = {"tracepoint_alone", "software_leads",
                                       "tracepoint_leads_software", "msr_leads",
                                       "tracepoint_leads_msr"};
  return EnumName(layout, kNames);
}

// The family whose calls a scope makes: proctree is system-wide counting and the process
// groups are groups, each with a mode bit of its own (Subject::Set).
FamilyKind FamilyOf(Scope scope) {
  switch (scope) {
    case Scope::kSystem:
    case Scope::kProcTree:
      return FamilyKind::kSystem;
    case Scope::kMyThread:
      return FamilyKind::kMyThread;
    case Scope::kThread:
      return FamilyKind::kThread;
    case Scope::kPThread:
      return FamilyKind::kPthread;
    case Scope::kMyGroup:
    case Scope::kMyProcessGroup:
      return FamilyKind::kMyGroup;
    case Scope::kGroup:
    case Scope::kProcessGroup:
      return FamilyKind::kGroup;
    case Scope::kPGroup:
      return FamilyKind::kPgroup;
  }
  return FamilyKind::kSystem;
}

// The family's entry points (support/family_entry_points.h) on a fixed target.
class Subject : public FamilyOps {
 public:
  explicit Subject(Scope scope) : scope_(scope) {
    if (IsRemote(scope)) child_.reset(new CallingChild(0, &CallRareSyscall));
    FamilyOps::operator=(OpsFor(FamilyOf(scope), pid()));  // once the child's pid is known
  }

  bool ready() const { return !IsRemote(scope_) || child_->ok(); }

  int Set(pm_prog_t *prog) const {
    if (scope_ == Scope::kProcTree) prog->mode.b.proctree = 1;
    if (scope_ == Scope::kMyProcessGroup || scope_ == Scope::kProcessGroup) {
      prog->mode.b.process = 1;
    }
    return FamilyOps::Set(prog);
  }

  // The target makes `n` counted calls: the child for the remote families, this thread
  // otherwise.
  void Calls(long n) {
    if (child_) {
      ASSERT_TRUE(child_->Calls(n)) << "the target child stopped answering";
    } else {
      CallRareSyscall(n);
    }
  }
  // The remote target exits and is reaped; its counts must stay readable.
  void TargetExits() { EXPECT_EQ(child_->Finish(), 0); }

 private:
  // The child's pid, also once it has exited (its counts stay readable).
  pid_t pid() const { return child_ ? child_->pid() : -1; }

  Scope scope_;
  std::unique_ptr<CallingChild> child_;
};

using MatrixParam = std::tuple<Scope, Layout>;

class FamilyMatrix : public ::testing::TestWithParam<MatrixParam> {
 protected:
  void SetUp() override {
    if (geteuid() != 0) GTEST_SKIP() << "needs root: tracefs and system-wide counting";
    if (!InitializeAll()) return;
    const Layout layout = std::get<1>(GetParam());
    if ((layout == Layout::kMsrLeads || layout == Layout::kTracepointLeadsMsr) &&
        access("/sys/bus/event_source/devices/msr/type", R_OK) != 0) {
      GTEST_SKIP() << "this kernel has no msr PMU";
    }
    subject_.reset(new Subject(std::get<0>(GetParam())));
    ASSERT_TRUE(subject_->ready()) << "cannot fork the target child";
  }
  void TearDown() override {
    if (programmed_) {
      EXPECT_EQ(subject_->Delete(), 0);
    }
  }

  // Programs the layout, counting off, and returns the tracepoint's counter.
  int Program() {
    const int tracepoint = EventId(kRareSyscall);
    int mode = PM_USER | PM_KERNEL;
    pm_prog_t prog;
    switch (std::get<1>(GetParam())) {
      case Layout::kTracepointAlone:
        prog = MakeProgram({tracepoint}, mode);
        counter_ = 0;
        break;
      case Layout::kSoftwareLeads:
        prog = MakeProgram({EventId(kSoftwareEvent), tracepoint}, mode);
        counter_ = 1;
        break;
      case Layout::kTracepointLeadsSoftware:
        prog = MakeProgram({tracepoint, EventId(kSoftwareEvent)}, mode);
        counter_ = 0;
        break;
      case Layout::kMsrLeads:
        prog = MakeProgram({EventId(kMsrEvent), tracepoint}, mode);
        // The msr PMU refuses to exclude any privilege level.
        prog.mode.b.hypervisor = 1;
        counter_ = 1;
        break;
      case Layout::kTracepointLeadsMsr:
        prog = MakeProgram({tracepoint, EventId(kMsrEvent)}, mode);
        prog.mode.b.hypervisor = 1;
        counter_ = 0;
        break;
    }
    const int rc = subject_->Set(&prog);
    EXPECT_EQ(rc, 0) << pm_strerror("set", rc);
    programmed_ = rc == 0;
    return counter_;
  }

  long long Count() {
    pm_data_t data;
    const int rc = subject_->Read(&data);
    EXPECT_EQ(rc, 0) << pm_strerror("read", rc);
    return rc == 0 ? data.accu[counter_] : -1;
  }

  std::unique_ptr<Subject> subject_;
  bool programmed_ = false;
  int counter_ = 0;
};

TEST_P(FamilyMatrix, StopThenStartCountsBothSpans) {
  Program();
  ASSERT_TRUE(programmed_);
  ASSERT_EQ(subject_->Start(), 0);
  subject_->Calls(5);
  ASSERT_EQ(subject_->Stop(), 0);
  EXPECT_EQ(Count(), 5) << "after the first span";
  subject_->Calls(7);
  EXPECT_EQ(Count(), 5) << "calls while stopped must not count";
  ASSERT_EQ(subject_->Start(), 0);
  subject_->Calls(10);
  EXPECT_EQ(Count(), 15) << "the second span must count after a restart";
  ASSERT_EQ(subject_->Stop(), 0);
  ASSERT_EQ(subject_->Start(), 0);
  subject_->Calls(3);
  EXPECT_EQ(Count(), 18) << "and a third";
}

TEST_P(FamilyMatrix, ResetWhileStoppedThenStart) {
  Program();
  ASSERT_TRUE(programmed_);
  ASSERT_EQ(subject_->Start(), 0);
  subject_->Calls(5);
  ASSERT_EQ(subject_->Stop(), 0);
  ASSERT_EQ(subject_->Reset(), 0);
  EXPECT_EQ(Count(), 0) << "a reset starts from zero";
  subject_->Calls(7);
  ASSERT_EQ(subject_->Start(), 0);
  subject_->Calls(10);
  EXPECT_EQ(Count(), 10);
}

TEST_P(FamilyMatrix, StartTwiceCountsOnce) {
  Program();
  ASSERT_TRUE(programmed_);
  ASSERT_EQ(subject_->Start(), 0);
  EXPECT_EQ(subject_->Start(), 0) << "starting a counting context is harmless";
  subject_->Calls(6);
  ASSERT_EQ(subject_->Stop(), 0);
  EXPECT_EQ(subject_->Stop(), Pmapi_NotCounting);
  EXPECT_EQ(Count(), 6);
}

// Only the families whose target is another process: this process cannot exit and read.
class RemoteFamilyMatrix : public FamilyMatrix {};

TEST_P(RemoteFamilyMatrix, ReadAfterTheTargetExited) {
  Program();
  ASSERT_TRUE(programmed_);
  ASSERT_EQ(subject_->Start(), 0);
  subject_->Calls(9);
  subject_->TargetExits();
  EXPECT_EQ(Count(), 9) << "the counts of an exited target stay readable";
}

std::string ParamName(const ::testing::TestParamInfo<MatrixParam> &info) {
  return std::string(ScopeName(std::get<0>(info.param))) + "_" +
         LayoutName(std::get<1>(info.param));
}

INSTANTIATE_TEST_SUITE_P(
    AllFamilies, FamilyMatrix,
    ::testing::Combine(::testing::Values(Scope::kSystem, Scope::kProcTree, Scope::kMyThread,
                                         Scope::kThread, Scope::kPThread, Scope::kMyGroup,
                                         Scope::kGroup, Scope::kPGroup, Scope::kMyProcessGroup,
                                         Scope::kProcessGroup),
                       ::testing::Values(Layout::kTracepointAlone, Layout::kSoftwareLeads,
                                         Layout::kTracepointLeadsSoftware, Layout::kMsrLeads,
                                         Layout::kTracepointLeadsMsr)),
    ParamName);

INSTANTIATE_TEST_SUITE_P(
    RemoteFamilies, RemoteFamilyMatrix,
    ::testing::Combine(::testing::Values(Scope::kThread, Scope::kPThread, Scope::kGroup,
                                         Scope::kPGroup, Scope::kProcessGroup),
                       ::testing::Values(Layout::kTracepointAlone, Layout::kSoftwareLeads,
                                         Layout::kTracepointLeadsSoftware, Layout::kMsrLeads,
                                         Layout::kTracepointLeadsMsr)),
    ParamName);

}  // namespace
