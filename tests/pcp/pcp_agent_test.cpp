// SPDX-License-Identifier: MIT
// The PCP agent's parts that need no pmcd (src/pcp): metric names and ids, the configuration
// file, and the counting through libpmapi's public calls, per CPU and per job, counted exactly
// with the getppid tracepoint. scripts/pcp-test runs the agent itself with the real daemons.
#include "agent_config.h"
#include "counting.h"
#include "metric_ids.h"
#include "metric_names.h"
#include "perf_lock.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <fstream>
#include <string>

namespace pmapi_pcp {
namespace {

TEST(PcpMetricNames, EventsBecomeLegalNamesWithTheirLevels) {
  EXPECT_EQ(MetricLeaf("syscalls:sys_enter_getppid", Mode::kAll), "syscalls.sys_enter_getppid");
  EXPECT_EQ(MetricLeaf("page-faults", Mode::kUser), "page_faults_u");
  EXPECT_EQ(MetricLeaf("msr/tsc/", Mode::kKernel), "msr.tsc_k");
  EXPECT_EQ(MetricLeaf("PM_CYC", Mode::kUserKernel), "PM_CYC_uk");
  EXPECT_EQ(MetricPart("CPUs utilized"), "CPUs_utilized");
  EXPECT_EQ(MetricPart("1st"), "e1st");
  EXPECT_EQ(MetricPart("--"), "e");
}

TEST(PcpMetricIds, FollowWhatIsCountedNotWhereItIsConfigured) {
  // The e2e test's metric: pmapi.job.syscalls.sys_enter_getppid of catalog id 236 is 470.1024.236.
  const MetricId job = EventMetricId(Scope::kJob, Kind::kCount, Mode::kAll, 236);
  EXPECT_EQ(job.cluster, 1024u);
  EXPECT_EQ(job.item, 236u);
  // Scope, kind, levels and the id's high bits each change the id.
  const MetricId high = EventMetricId(Scope::kCpu, Kind::kShare, Mode::kUser, 5 * 1024 + 7);
  EXPECT_EQ(high.cluster, 0u << 10 | 1u << 8 | 1u << 6 | 5u);
  EXPECT_EQ(high.item, 7u);
  const MetricId derived = DerivedMetricId(Scope::kNode, 17, 2);
  EXPECT_EQ(derived.cluster, 2u << 10 | 2u << 8 | 1u);
  EXPECT_EQ(derived.item, 1u << 6 | 2u);
  EXPECT_EQ(AgentMetricId(kRefusedItem).cluster, 3u << 10);
}

TEST(PcpAgentConfig, ReadsKeysAndNamesABadLine) {
  char path[] = "/tmp/pmapi-pcp-config-XXXXXX";
  const int fd = mkstemp(path);
  ASSERT_GE(fd, 0);
  close(fd);
  {
    std::ofstream out(path);
    out << "# comment\n events = syscalls:sys_enter_getppid , page-faults \n"
        << "cgroup_root=/sys/fs/cgroup/jobs\njob_access = all\n";
  }
  AgentConfig config;
  std::string why;
  ASSERT_TRUE(ReadAgentConfig(path, &config, &why)) << why;
  EXPECT_EQ(config.events, "syscalls:sys_enter_getppid , page-faults");
  EXPECT_EQ(config.cgroup_root, "/sys/fs/cgroup/jobs");
  EXPECT_FALSE(config.jobs_to_owner);
  {
    std::ofstream out(path);
    out << "events = task-clock\njob_access = some\n";
  }
  EXPECT_FALSE(ReadAgentConfig(path, &config, &why));
  EXPECT_NE(why.find(std::string(path) + ":2:"), std::string::npos) << why;
  unlink(path);
  AgentConfig defaults;
  EXPECT_TRUE(ReadAgentConfig("/nonexistent/pmapi.conf", &defaults, &why));
  EXPECT_TRUE(defaults.jobs_to_owner);
}

TEST(PcpPerfLock, HeldWhileAnotherProcessLocksTheFile) {
  char path[] = "/tmp/pmapi-pcp-perflock-XXXXXX";
  const int fd = mkstemp(path);
  ASSERT_GE(fd, 0);
  close(fd);
  EXPECT_FALSE(PerfLockHeld(path));
  EXPECT_FALSE(PerfLockHeld("/nonexistent/perflock"));
  // A child takes a read lock, as PCP's perfalloc does, and holds it until told to go.
  int locked[2], done[2];
  ASSERT_EQ(pipe(locked), 0);
  ASSERT_EQ(pipe(done), 0);
  const pid_t child = fork();
  if (child == 0) {
    const int lock_fd = open(path, O_RDONLY);
    struct flock lock = {};
    lock.l_type = F_RDLCK;
    lock.l_whence = SEEK_SET;
    if (lock_fd < 0 || fcntl(lock_fd, F_SETLK, &lock) != 0) _exit(1);
    char byte = 1;
    if (write(locked[1], &byte, 1) != 1 || read(done[0], &byte, 1) < 0) _exit(2);
    _exit(0);
  }
  char byte = 0;
  ASSERT_EQ(read(locked[0], &byte, 1), 1);
  EXPECT_TRUE(PerfLockHeld(path));
  ASSERT_EQ(write(done[1], &byte, 1), 1);
  int status = -1;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  EXPECT_EQ(status, 0);
  EXPECT_FALSE(PerfLockHeld(path));
  for (int end : {locked[0], locked[1], done[0], done[1]}) close(end);
  unlink(path);
}

void CallGetppid(int n) {
  for (int i = 0; i < n; ++i) syscall(SYS_getppid);
}

TEST(PcpCounting, RefusesOneEventAndCountsTheOthersPerCpu) {
  Counting counting;
  if (!counting.Configure("syscalls:sys_enter_getppid,no_such_event")) {
    GTEST_SKIP() << "this process may not count CPUs: " << counting.state();
  }
  ASSERT_EQ(counting.events().size(), 1u);
  EXPECT_EQ(counting.events()[0].leaf, "syscalls.sys_enter_getppid");
  ASSERT_EQ(counting.refusals().size(), 1u);
  EXPECT_EQ(counting.refusals()[0].event, "no_such_event");
  EXPECT_NE(counting.refusals()[0].reason.find("no_such_event"), std::string::npos);
  CallGetppid(1000);
  uint64_t sum = 0;
  for (size_t c = 0; c < counting.cpus().size(); ++c) {
    std::vector<EventCount> counts;
    ASSERT_TRUE(counting.ReadCpu(c, &counts));
    sum += counts[0].raw;
    EXPECT_EQ(counts[0].running, counts[0].enabled) << "a tracepoint is never multiplexed";
  }
  EXPECT_GE(sum, 1000u);
}

TEST(PcpCounting, AJobCountsExactlyTheCallsInItsCgroup) {
  std::string root;
  {
    std::ifstream mounts("/proc/mounts");
    std::string device, point, type, rest;
    while (root.empty() && mounts >> device >> point >> type && std::getline(mounts, rest)) {
      if (type == "cgroup2") root = point;
    }
  }
  if (root.empty()) GTEST_SKIP() << "no cgroup v2 hierarchy is mounted";
  const std::string jobs = root + "/pmapi-pcp-agent-test-" + std::to_string(getpid());
  if (mkdir(jobs.c_str(), 0755) != 0) GTEST_SKIP() << "cannot make " << jobs;
  const std::string job = jobs + "/job1";
  ASSERT_EQ(mkdir(job.c_str(), 0755), 0);
  {
    Counting counting;
    counting.SetCgroupRoot(jobs);
    if (counting.Configure("syscalls:sys_enter_getppid")) {
      counting.ScanJobs();
      ASSERT_EQ(counting.jobs().size(), 1u);
      ASSERT_TRUE(counting.jobs()[0].counted) << counting.jobs()[0].why;
      EXPECT_EQ(counting.jobs()[0].name, "job1");
      const pid_t child = fork();
      if (child == 0) {
        std::ofstream procs(job + "/cgroup.procs");
        procs << getpid() << std::endl;
        if (!procs) _exit(3);
        CallGetppid(777);
        _exit(0);
      }
      int status = -1;
      ASSERT_EQ(waitpid(child, &status, 0), child);
      ASSERT_EQ(status, 0);
      CallGetppid(50);  // this process is not in the job
      std::vector<EventCount> counts;
      ASSERT_TRUE(counting.ReadJob(0, &counts));
      EXPECT_EQ(counts[0].raw, 777u);
      // The job opts out, then in again: not counted meanwhile, then from zero.
      if (setxattr(job.c_str(), "user.pmapi.optout", "1", 1, 0) == 0) {
        counting.ScanJobs();
        ASSERT_EQ(counting.jobs().size(), 1u);
        EXPECT_FALSE(counting.jobs()[0].counted);
        EXPECT_NE(counting.jobs()[0].why.find("opted out"), std::string::npos);
        ASSERT_EQ(removexattr(job.c_str(), "user.pmapi.optout"), 0);
        counting.ScanJobs();
        ASSERT_TRUE(counting.jobs()[0].counted);
        ASSERT_TRUE(counting.ReadJob(0, &counts));
        EXPECT_EQ(counts[0].raw, 0u);
      }
    }
  }
  rmdir(job.c_str());
  rmdir(jobs.c_str());
}

}  // namespace
}  // namespace pmapi_pcp
