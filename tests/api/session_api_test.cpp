// SPDX-License-Identifier: MIT
// pmapi_session.h through its C entry points: events with their own modifiers, wildcards
// expanded to hundreds of tracepoints that all count exactly, each kind of target (the calling
// thread, a process with its threads and children, CPUs, a cgroup), and the errors.
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <pthread.h>
#include <sched.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <string>
#include <vector>

#include "pmapi_session.h"
#include "pmapi_topology.h"
#include "support/child_process.h"
#include "support/counting.h"

using namespace pmapi_test;

namespace {

class SessionApi : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!InitializeAll()) return;
    initialized_ = true;
    descriptors_ = CountPerfDescriptors();
    ASSERT_EQ(pm_session_create(0, &session_), 0);
  }
  void TearDown() override {
    pm_session_destroy(session_);
    if (initialized_) {
      EXPECT_EQ(CountPerfDescriptors(), descriptors_) << "destroy closes everything";
    }
  }

  // The index of the event named `name`, or -1.
  int Find(const std::string &name) {
    int n = 0;
    pm_session_nevents(session_, &n);
    for (int i = 0; i < n; ++i) {
      pm_session_event_t info;
      if (pm_session_event_info(session_, i, &info) == 0 && name == info.name) return i;
    }
    return -1;
  }

  std::vector<pm_session_count_t> Read() {
    int n = 0;
    pm_session_nevents(session_, &n);
    std::vector<pm_session_count_t> counts(static_cast<size_t>(n));
    EXPECT_EQ(pm_session_read(session_, counts.data(), n), 0) << pm_strerror("read", 0);
    return counts;
  }

  pm_session_t *session_ = nullptr;
  bool initialized_ = false;
  int descriptors_ = 0;
};

std::string Why(int code) { return pm_strerror("", code); }

// The threads of process `pid` now: a forked child of a sanitizer build runs the sanitizer's own
// thread beside its main one, and each thread of a process target gets its descriptors.
int ThreadsOf(pid_t pid) {
  DIR *tasks = opendir(("/proc/" + std::to_string(pid) + "/task").c_str());
  if (!tasks) return 0;
  int threads = 0;
  while (const dirent *entry = readdir(tasks)) threads += entry->d_name[0] != '.';
  closedir(tasks);
  return threads;
}

TEST_F(SessionApi, EverySyscallTracepointCountsExactlyOnACommand) {
  int added = 0;
  ASSERT_EQ(pm_session_add_events(session_, "syscalls:sys_enter_*", &added), 0) << Why(6);
  ASSERT_GE(added, 100) << "the kernel has fewer syscall tracepoints than expected";
  const int getppid = Find(kGetppid);
  const int rare = Find(kRareSyscall);
  ASSERT_GE(getppid, 0);
  ASSERT_GE(rare, 0);
  CallingChild child(0);
  ASSERT_TRUE(child.ok());
  ASSERT_EQ(pm_session_add_process(session_, child.pid()), 0);
  ASSERT_EQ(pm_session_start(session_), 0) << Why(pm_session_start(session_));
  EXPECT_EQ(CountPerfDescriptors(), descriptors_ + added * ThreadsOf(child.pid()))
      << "one descriptor per tracepoint and thread";
  ASSERT_TRUE(child.Calls(1234));
  ASSERT_EQ(pm_session_stop(session_), 0);
  const std::vector<pm_session_count_t> counts = Read();
  EXPECT_EQ(counts[static_cast<size_t>(getppid)].value, 1234u);
  EXPECT_EQ(counts[static_cast<size_t>(rare)].value, 0u);
  for (const pm_session_count_t &count : counts) {
    EXPECT_EQ(count.scaled, 0) << "a tracepoint never takes turns";
    EXPECT_EQ(count.value, count.raw);
  }
  pm_session_event_t info;
  ASSERT_EQ(pm_session_event_info(session_, getppid, &info), 0);
  EXPECT_EQ(info.kind, PM_SESSION_TRACEPOINT);
  EXPECT_EQ(info.group, -1);
  EXPECT_EQ(child.Finish(), 0);
}

// Fewer tracepoints than above: the close of each tracepoint's last event waits for an RCU grace
// period in the kernel, a few milliseconds each.
TEST_F(SessionApi, GetppidCountsExactlyBesideOtherTracepointsOnTheCallingThread) {
  int added = 0;
  ASSERT_EQ(pm_session_add_events(session_, "syscalls:sys_enter_get*,page-faults", &added), 0);
  ASSERT_GE(added, 10);
  const int getppid = Find(kGetppid);
  ASSERT_GE(getppid, 0);
  ASSERT_EQ(pm_session_start(session_), 0);
  CallGetppid(500);
  ASSERT_EQ(pm_session_stop(session_), 0);
  EXPECT_EQ(Read()[static_cast<size_t>(getppid)].value, 500u);
  ASSERT_EQ(pm_session_reset(session_), 0);
  EXPECT_EQ(Read()[static_cast<size_t>(getppid)].value, 0u);
  ASSERT_EQ(pm_session_start(session_), 0);
  CallGetppid(7);
  ASSERT_EQ(pm_session_stop(session_), 0);
  EXPECT_EQ(Read()[static_cast<size_t>(getppid)].value, 7u);
}

// PM_SESSION_FLEXIBLE is the one flag; a flexible session counts what never competes for
// counters exactly, as any other.
TEST_F(SessionApi, TheFlexibleFlagIsTheOneFlagAndCountsExactly) {
  pm_session_t *other = reinterpret_cast<pm_session_t *>(1);
  EXPECT_EQ(pm_session_create(2, &other), Pmapi_InvalidArg);
  EXPECT_EQ(other, nullptr);
  EXPECT_NE(Why(Pmapi_InvalidArg).find("PM_SESSION_FLEXIBLE"), std::string::npos);
  ASSERT_EQ(pm_session_create(PM_SESSION_FLEXIBLE, &other), 0);
  ASSERT_EQ(pm_session_add_events(other, kGetppid, nullptr), 0);
  ASSERT_EQ(pm_session_start(other), 0);
  CallGetppid(300);
  ASSERT_EQ(pm_session_stop(other), 0);
  pm_session_count_t count;
  ASSERT_EQ(pm_session_read(other, &count, 1), 0);
  EXPECT_EQ(count.value, 300u);
  EXPECT_EQ(count.scaled, 0);
  pm_session_destroy(other);
}

TEST_F(SessionApi, UserAndKernelVariantsOfOneEventAreTwoEvents) {
  const std::string spec =
      std::string(kGetppid) + ":u," + kGetppid + ":k,page-faults:u,page-faults:k";
  int added = 0;
  ASSERT_EQ(pm_session_add_events(session_, spec.c_str(), &added), 0) << Why(6);
  ASSERT_EQ(added, 4);
  pm_session_event_t info;
  ASSERT_EQ(pm_session_event_info(session_, 2, &info), 0);
  EXPECT_STREQ(info.name, "page-faults:u");
  EXPECT_EQ(info.user, 1);
  EXPECT_EQ(info.kernel, 0);
  EXPECT_EQ(info.hypervisor, 0);
  EXPECT_EQ(info.kind, PM_SESSION_SOFTWARE);
  ASSERT_EQ(pm_session_event_info(session_, 1, &info), 0);
  EXPECT_EQ(info.user, 0);
  EXPECT_EQ(info.kernel, 1);
  constexpr long kPages = 300;
  ASSERT_EQ(pm_session_start(session_), 0);
  CallGetppid(40);
  ASSERT_TRUE(TouchFreshPages(kPages));
  ASSERT_EQ(pm_session_stop(session_), 0);
  const std::vector<pm_session_count_t> counts = Read();
  // A system call's entry tracepoint sees the caller's user registers: the kernel counts it in
  // either mode. Each variant is its own event, counted exactly.
  EXPECT_EQ(counts[0].value, 40u);
  EXPECT_EQ(counts[1].value, 40u);
  EXPECT_GE(counts[2].value, static_cast<uint64_t>(kPages));
  EXPECT_LE(counts[2].value, static_cast<uint64_t>(kPages + FaultSlack(kPages)));
  EXPECT_LT(counts[3].value, counts[2].value);
}

TEST_F(SessionApi, ModifierLettersCombineAsPerfWritesThem) {
  ASSERT_EQ(pm_session_add_events(session_, "page-faults:uk,page-faults:h,task-clock", nullptr), 0);
  pm_session_event_t info;
  ASSERT_EQ(pm_session_event_info(session_, 0, &info), 0);
  EXPECT_EQ(info.user + info.kernel + info.hypervisor, 2);
  ASSERT_EQ(pm_session_event_info(session_, 1, &info), 0);
  EXPECT_EQ(info.hypervisor, 1);
  EXPECT_EQ(info.user + info.kernel, 0);
  ASSERT_EQ(pm_session_event_info(session_, 2, &info), 0);
  EXPECT_EQ(info.user + info.kernel + info.hypervisor, 3) << "bare: every level, as perf";
}

// What the process target's child does once counting: a thread, a child process, itself.
void ThreadsAndAChild() {
  pthread_t thread;
  if (pthread_create(
          &thread, nullptr,
          [](void *) -> void * {
            CallGetppid(100);
            return nullptr;
          },
          nullptr) != 0) {
    _exit(30);
  }
  pthread_join(thread, nullptr);
  if (InChild([] { CallGetppid(200); }) != 0) _exit(31);
  CallGetppid(300);
}

TEST_F(SessionApi, AProcessTargetCountsTheThreadsAndChildrenItStarts) {
  ASSERT_EQ(pm_session_add_events(session_, kGetppid, nullptr), 0);
  CallingChild child{std::function<void()>(ThreadsAndAChild)};
  ASSERT_TRUE(child.ok());
  ASSERT_EQ(pm_session_add_process(session_, child.pid()), 0);
  ASSERT_EQ(pm_session_start(session_), 0);
  ASSERT_TRUE(child.Go());
  ASSERT_EQ(child.Finish(), 0);
  ASSERT_EQ(pm_session_stop(session_), 0);
  EXPECT_EQ(Read()[0].value, 600u) << "100 in a thread + 200 in a child + 300 itself";
  pm_session_count_t count;
  ASSERT_EQ(pm_session_read_target(session_, 0, &count, 1), 0);
  EXPECT_EQ(count.value, 600u);
  EXPECT_EQ(pm_session_read_cpu(session_, 0, &count, 1), Pmapi_CpuNotCounted);
}

TEST_F(SessionApi, TwoTargetsAreReadApart) {
  ASSERT_EQ(pm_session_add_events(session_, kGetppid, nullptr), 0);
  CallingChild child(0);
  ASSERT_TRUE(child.ok());
  ASSERT_EQ(pm_session_add_thread(session_, 0), 0);
  ASSERT_EQ(pm_session_add_process(session_, child.pid()), 0);
  ASSERT_EQ(pm_session_start(session_), 0);
  CallGetppid(11);
  ASSERT_TRUE(child.Calls(22));
  ASSERT_EQ(pm_session_stop(session_), 0);
  pm_session_count_t count;
  ASSERT_EQ(pm_session_read_target(session_, 0, &count, 1), 0);
  EXPECT_EQ(count.value, 11u);
  ASSERT_EQ(pm_session_read_target(session_, 1, &count, 1), 0);
  EXPECT_EQ(count.value, 22u);
  EXPECT_EQ(Read()[0].value, 33u);
  EXPECT_EQ(pm_session_read_target(session_, 2, &count, 1), Pmapi_InvalidArg);
  EXPECT_EQ(child.Finish(), 0);
}

// Dense CPU 0's Linux number, for pinning a thread to it.
int LinuxCpuOfDense(int dense) {
  pm_cpu_topology_t where;
  return pm_get_cpu_topology(dense, &where) == 0 ? where.lcpu : -1;
}

TEST_F(SessionApi, ACpuListCountsWhatRunsOnItsCpus) {
  if (geteuid() != 0) GTEST_SKIP() << "counting a CPU needs root here";
  ASSERT_EQ(pm_session_add_events(session_, kRareSyscall, nullptr), 0);
  const int cpus[] = {0};
  ASSERT_EQ(pm_session_add_cpus(session_, cpus, 1), 0);
  const int linux_cpu = LinuxCpuOfDense(0);
  ASSERT_GE(linux_cpu, 0);
  cpu_set_t saved;
  ASSERT_EQ(sched_getaffinity(0, sizeof saved, &saved), 0);
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(linux_cpu, &one);
  ASSERT_EQ(sched_setaffinity(0, sizeof one, &one), 0);
  const int started = pm_session_start(session_);
  CallRareSyscall(321);
  const int stopped = pm_session_stop(session_);
  sched_setaffinity(0, sizeof saved, &saved);
  ASSERT_EQ(started, 0) << Why(started);
  ASSERT_EQ(stopped, 0);
  pm_session_count_t count;
  ASSERT_EQ(pm_session_read_cpu(session_, 0, &count, 1), 0);
  EXPECT_EQ(count.value, 321u);
  EXPECT_EQ(Read()[0].value, 321u);
  int n = 0;
  ASSERT_EQ(pm_get_cpu_count(&n), 0);
  if (n > 1) {
    EXPECT_EQ(pm_session_read_cpu(session_, 1, &count, 1), Pmapi_CpuNotCounted);
  }
}

// The cgroup v2 hierarchy's mount point, or "" when there is none.
std::string CgroupV2Root() {
  std::ifstream mounts("/proc/mounts");
  std::string device, point, type, rest;
  while (mounts >> device >> point >> type && std::getline(mounts, rest)) {
    if (type == "cgroup2") return point;
  }
  return "";
}

TEST_F(SessionApi, ACgroupCountsTheTasksInIt) {
  const std::string root = CgroupV2Root();
  if (root.empty()) GTEST_SKIP() << "no cgroup v2 hierarchy is mounted";
  const std::string dir = root + "/pmapi-session-test-" + std::to_string(getpid());
  if (mkdir(dir.c_str(), 0755) != 0) {
    GTEST_SKIP() << "cannot make a cgroup under " << root << ": " << strerror(errno);
  }
  CallingChild child(0);
  ASSERT_TRUE(child.ok());
  {
    std::ofstream procs(dir + "/cgroup.procs");
    procs << child.pid() << std::endl;
    if (!procs) {
      child.Finish();
      rmdir(dir.c_str());
      GTEST_SKIP() << "cannot move a process into " << dir;
    }
  }
  ASSERT_EQ(pm_session_add_events(session_, kGetppid, nullptr), 0);
  ASSERT_EQ(pm_session_add_cgroup(session_, dir.c_str(), nullptr, 0), 0);
  const int rc = pm_session_start(session_);
  if (rc == 0) {
    CallGetppid(50);  // this process is not in the cgroup
    EXPECT_TRUE(child.Calls(777));
    EXPECT_EQ(pm_session_stop(session_), 0);
    EXPECT_EQ(Read()[0].value, 777u);
  }
  EXPECT_EQ(child.Finish(), 0);
  pm_session_destroy(session_);
  session_ = nullptr;
  rmdir(dir.c_str());
  if (rc != 0) GTEST_SKIP() << "the kernel counts no cgroup here: " << Why(rc);
}

TEST_F(SessionApi, ErrorsSayWhatAndChangeNothing) {
  EXPECT_EQ(pm_session_add_events(session_, "syscalls:sys_entr_getppid", nullptr),
            Pmapi_InvalidEvent);
  EXPECT_NE(Why(Pmapi_InvalidEvent).find("did you mean"), std::string::npos)
      << Why(Pmapi_InvalidEvent);
  EXPECT_EQ(pm_session_add_events(session_, "syscalls:sys_entr_*", nullptr), Pmapi_InvalidEvent);
  EXPECT_NE(Why(Pmapi_InvalidEvent).find("syscalls:sys_enter_*"), std::string::npos)
      << Why(Pmapi_InvalidEvent);
  EXPECT_EQ(pm_session_add_events(session_, "task-clock,nosuchevent", nullptr), Pmapi_InvalidEvent);
  int n = -1;
  ASSERT_EQ(pm_session_nevents(session_, &n), 0);
  EXPECT_EQ(n, 0) << "a refused list adds nothing";
  EXPECT_EQ(pm_session_open(session_), Pmapi_NoEvents);
  pm_session_count_t count;
  EXPECT_EQ(pm_session_read(session_, &count, 1), Pmapi_NoSetProg);
  EXPECT_EQ(pm_session_stop(session_), Pmapi_NoSetProg);
  const int bad_cpu[] = {1 << 20};
  EXPECT_EQ(pm_session_add_cpus(session_, bad_cpu, 1), Pmapi_InvalidCpu);
  const int twice[] = {0, 0};
  EXPECT_EQ(pm_session_add_cpus(session_, twice, 2), Pmapi_InvalidCpu);
  EXPECT_EQ(pm_session_add_process(session_, -1), Pmapi_InvalidArg);
  EXPECT_EQ(pm_session_create(1, nullptr), Pmapi_InvalidArg);
  ASSERT_EQ(pm_session_add_events(session_, "task-clock", nullptr), 0);
  ASSERT_EQ(pm_session_open(session_), 0);
  EXPECT_EQ(pm_session_add_events(session_, "page-faults", nullptr), Pmapi_ProgExists);
  EXPECT_EQ(pm_session_add_thread(session_, 0), Pmapi_ProgExists);
  EXPECT_EQ(pm_session_read(session_, nullptr, 1), Pmapi_InvalidArg);
}

TEST_F(SessionApi, AMissingTargetFailsTheOpenAndLeavesNothingOpen) {
  ASSERT_EQ(pm_session_add_events(session_, "task-clock,page-faults", nullptr), 0);
  pid_t gone = fork();
  if (gone == 0) _exit(0);
  ASSERT_GT(gone, 0);
  waitpid(gone, nullptr, 0);
  ASSERT_EQ(pm_session_add_thread(session_, 0), 0);
  ASSERT_EQ(pm_session_add_process(session_, gone), 0);
  EXPECT_EQ(pm_session_start(session_), Pmapi_NoSuchThread);
  EXPECT_NE(Why(Pmapi_NoSuchThread).find(std::to_string(gone)), std::string::npos);
  EXPECT_EQ(CountPerfDescriptors(), descriptors_);
  pm_session_t *other = nullptr;
  ASSERT_EQ(pm_session_create(0, &other), 0);
  ASSERT_EQ(pm_session_add_events(other, "task-clock", nullptr), 0);
  ASSERT_EQ(pm_session_add_cgroup(other, "/nonexistent/cgroup", nullptr, 0), 0);
  EXPECT_EQ(pm_session_open(other), Pmapi_InvalidArg);
  EXPECT_NE(Why(Pmapi_InvalidArg).find("/nonexistent/cgroup"), std::string::npos);
  pm_session_destroy(other);
}

// A directory that is not a cgroup (the kernel answers EBADF for it) is named as such, with the
// way to a real one, never as "the kernel returned an unexpected error".
TEST_F(SessionApi, ADirectoryThatIsNoCgroupIsNamedSo) {
  ASSERT_EQ(pm_session_add_events(session_, "task-clock", nullptr), 0);
  ASSERT_EQ(pm_session_add_cgroup(session_, "/proc/self", nullptr, 0), 0);
  const int rc = pm_session_open(session_);
  if (rc == Pmapi_Permission) GTEST_SKIP() << "system-wide counting is not allowed here";
  ASSERT_EQ(rc, Pmapi_InvalidArg) << Why(rc);
  EXPECT_NE(Why(rc).find("'/proc/self' is not a cgroup v2 directory"), std::string::npos)
      << Why(rc);
  EXPECT_EQ(CountPerfDescriptors(), descriptors_);
}

}  // namespace
