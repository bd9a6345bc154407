// SPDX-License-Identifier: MIT
// Faults in the file reads behind the counting calls, through the kernel seam: the online-CPU
// list (system-wide set), the tracepoint's id in tracefs (any set of a tracepoint), the target's
// /proc entry (_thread set), the task list (system-wide proctree set), and every sysfs/tracefs
// read the catalog makes at pm_initialize time. A file read that fails is no perf refusal:
// running out of descriptors or memory keeps its code, a missing tracepoint or thread says so,
// anything else is Pmapi_KernelError naming the file and the errno (docs/errors.md).
#include <dirent.h>
#include <errno.h>
#include <gtest/gtest.h>
#include <string.h>

#include <memory>
#include <string>
#include <tuple>

#include "catalog/catalog.h"
#include "reliability_families.h"
#include "support/counting.h"
#include "support/enum_names.h"
#include "support/fake_kernel.h"

using namespace pmapi_test;

namespace {

enum class Source { kOnlineCpus, kTracepointId, kThreadProc, kTaskList };

const char *SourceName(Source source) {
  static const char *const kNames[] = {"online_cpus", "tracepoint_id", "thread_proc", "task_list"};
  return EnumName(source, kNames);
}

const int kErrnos[] = {EMFILE,     ENFILE, ENOMEM, EACCES, EPERM, ENOENT,
                       EOPNOTSUPP, EINVAL, EBUSY,  EINTR,  EIO};

// The code a failed read of `source` with `err` must give.
int ExpectedCode(Source source, int err) {
  switch (err) {
    case EMFILE:
    case ENFILE:
      return Pmapi_TooManyFiles;
    case ENOMEM:
      return Pmapi_Malloc_Err;
    case EINTR:
      return Pmapi_Interrupted;
    case ENOENT:
      if (source == Source::kTracepointId) return Pmapi_InvalidEvent;
      if (source == Source::kThreadProc) return Pmapi_NoSuchThread;
      return Pmapi_KernelError;
    default:
      return Pmapi_KernelError;
  }
}

int CountAllDescriptors() {
  int count = 0;
  DIR *dir = opendir("/proc/self/fd");
  if (!dir) return -1;
  while (readdir(dir)) ++count;
  closedir(dir);
  return count;
}

using Case = std::tuple<Source, int>;

class FileFaults : public FamilyFaultTest<Case> {
 protected:
  FakeKernel kernel_;
};

TEST_P(FileFaults, CodeMessageNoLeakAndRecovery) {
  const Source source = std::get<0>(GetParam());
  const int err = std::get<1>(GetParam());
  const FamilyKind kind = source == Source::kThreadProc     ? FamilyKind::kThread
                          : source == Source::kTracepointId ? FamilyKind::kMyThread
                                                            : FamilyKind::kSystem;
  Family family(kind);
  int mode = PM_USER | PM_KERNEL | PM_COUNT;
  if (source == Source::kTaskList) mode |= PM_PROCTREE;
  // Plain system-wide counting sees the whole machine: count the system call nobody else makes
  // there, so that every case's count is exact.
  const bool machine_wide = source == Source::kOnlineCpus;
  pm_prog_t prog = MakeProgram({machine_wide ? EventId(kRareSyscall) : getppid_}, mode);

  std::string path;  // what the message must name
  switch (source) {
    case Source::kOnlineCpus:
      path = "/sys/devices/system/cpu/online";
      kernel_.FailWith(FakeKernel::Op::kReadFile, err, path);
      break;
    case Source::kTracepointId:
      path = "/events/syscalls/sys_enter_getppid/id";
      kernel_.FailWith(FakeKernel::Op::kReadFile, err, "/sys/kernel/tracing/events/");
      kernel_.FailWith(FakeKernel::Op::kReadFile, err, "/sys/kernel/debug/tracing/events/");
      break;
    case Source::kThreadProc:
      path = "/proc/" + std::to_string(family.Tid()) + "/task/";
      kernel_.FailWith(FakeKernel::Op::kReadFile, err, path);
      break;
    case Source::kTaskList:
      path = "/proc/self/task";
      kernel_.FailWith(FakeKernel::Op::kListDirectory, err, path);
      break;
  }
  {
    ScopedKernel scoped(&kernel_);
    const int expected = ExpectedCode(source, err);
    EXPECT_EQ(family.Set(&prog), expected) << strerror(err);
    const std::string message = pm_strerror("set", expected);
    const std::string names = expected == Pmapi_NoSuchThread
                                  ? "thread " + std::to_string(family.Tid()) + " of process"
                                  : path;
    EXPECT_NE(message.find(names), std::string::npos) << "names the file: " << message;
    if (expected != Pmapi_NoSuchThread && expected != Pmapi_InvalidEvent) {
      EXPECT_NE(message.find(strerrorname_np(err)), std::string::npos) << message;
    }
    EXPECT_EQ(message.find("perf_event_paranoid"), std::string::npos)
        << "a file read is no perf privilege matter: " << message;
    EXPECT_EQ(CountPerfDescriptors(), baseline_fds_);
    pm_data_t data;
    pm_accu_time_t times;
    EXPECT_EQ(family.Read(&data, &times), Pmapi_NoSetProg) << "no half-built context";
  }
  // The files read again: the same set works and counts exactly the target's 12 calls (this
  // thread; the child for _thread; this process's tree for proctree).
  ASSERT_EQ(family.Set(&prog), 0) << pm_strerror("set", Pmapi_KernelError);
  if (machine_wide) {
    CallRareSyscall(12);
  } else {
    family.TargetCalls(12);
  }
  pm_data_t data;
  pm_accu_time_t times;
  ASSERT_EQ(family.Read(&data, &times), 0);
  EXPECT_EQ(data.accu[0], 12);
  EXPECT_EQ(family.Delete(), 0);
  EXPECT_EQ(CountPerfDescriptors(), baseline_fds_);
}

INSTANTIATE_TEST_SUITE_P(
    Sources, FileFaults,
    ::testing::Combine(::testing::Values(Source::kOnlineCpus, Source::kTracepointId,
                                         Source::kThreadProc, Source::kTaskList),
                       ::testing::ValuesIn(kErrnos)),
    [](const ::testing::TestParamInfo<Case> &param) {
      return std::string(SourceName(std::get<0>(param.param))) + "_" +
             strerrorname_np(std::get<1>(param.param));
    });

// pm_initialize's catalog reads sysfs PMUs and tracefs: with every one of those reads failing,
// a catalog is still built (software events and the tables), without tracepoints or sysfs PMU
// events, and without a descriptor left behind.
class CatalogFileFaults : public ::testing::TestWithParam<int> {};

TEST_P(CatalogFileFaults, BuildsWithoutThoseSourcesAndLeaksNothing) {
  const int err = GetParam();
  FakeKernel kernel;
  for (const char *prefix : {"/sys", "/proc"}) {
    kernel.FailWith(FakeKernel::Op::kReadFile, err, prefix);
    kernel.FailWith(FakeKernel::Op::kListDirectory, err, prefix);
  }
  const int before = CountAllDescriptors();
  {
    ScopedKernel scoped(&kernel);
    std::unique_ptr<pmapi::Catalog> catalog = pmapi::Catalog::Build();
    ASSERT_NE(catalog, nullptr);
    EXPECT_NE(catalog->FindName("task-clock"), nullptr) << "software events need no file";
    EXPECT_NE(catalog->FindName("PM_CYC"), nullptr) << "the tables are compiled in";
    EXPECT_EQ(catalog->FindName(kGetppid), nullptr) << "no tracefs, no tracepoints";
    for (const pmapi::CatalogEvent &event : catalog->events()) {
      EXPECT_NE(event.source, pmapi::EventSource::kSysfsPmu) << event.short_name;
    }
    EXPECT_GT(
        kernel.Calls(FakeKernel::Op::kReadFile) + kernel.Calls(FakeKernel::Op::kListDirectory), 0)
        << "the faults were met";
  }
  EXPECT_EQ(CountAllDescriptors(), before);
}

INSTANTIATE_TEST_SUITE_P(Errnos, CatalogFileFaults, ::testing::ValuesIn(kErrnos),
                         [](const ::testing::TestParamInfo<int> &param) {
                           return std::string(strerrorname_np(param.param));
                         });

}  // namespace
