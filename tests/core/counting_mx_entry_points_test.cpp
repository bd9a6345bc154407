// SPDX-License-Identifier: MIT
// Every _mx and _mm entry point, scope by scope, through one table: a multiplexed program of
// two sets with a slice far longer than the test (so set 0 counts all along and set 1 never
// does) reads exactly N and 0; get_program_mx/_mm hand the sets back in memory the caller
// frees; a multi-mode program's modes come back as they were set. The rotation itself is
// tested in counting_mx_rotation_test.cpp and counting_mx_timing_test.cpp.
//
// The system-wide scope counts every process's calls, and on a shared machine another process
// (another checkout's copy of these very tests, say) may make the same rare call. So those counts
// are checked against a witness: the kernel's own count of the tracepoint on every CPU, opened
// before the program and read after each read, a window that contains the library's. The
// library's count must lie between the calls the test made and the witness; when the witness
// saw exactly the test's calls, no one else called, and it must be exact. A disturbed attempt is
// retried, so a quiet machine still checks exactness.
#include <gtest/gtest.h>
#include <linux/perf_event.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <fstream>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "support/child_process.h"
#include "support/counting.h"
#include "support/counting_fixture.h"

using namespace pmapi_test;

namespace {

constexpr int kLongSliceMs = 600'000;
constexpr int kAttempts = 5;  // system-wide attempts to find a window nobody else called in

// The kernel's count of one tracepoint on every online CPU, all processes, from construction:
// an independent count, opened with perf_event_open(2) directly, not through the library.
class MachineWideWitness {
 public:
  explicit MachineWideWitness(const std::string &tracepoint) {
    const std::string path = "events/" + tracepoint.substr(0, tracepoint.find(':')) + "/" +
                             tracepoint.substr(tracepoint.find(':') + 1) + "/id";
    long long id = -1;
    for (const char *root : {"/sys/kernel/tracing/", "/sys/kernel/debug/tracing/"}) {
      std::ifstream file(root + path);
      if (file >> id) break;
    }
    EXPECT_GE(id, 0) << "no id for " << tracepoint;
    perf_event_attr attr = {};
    attr.size = sizeof attr;
    attr.type = PERF_TYPE_TRACEPOINT;
    attr.config = static_cast<unsigned long long>(id);
    const long cpus = sysconf(_SC_NPROCESSORS_CONF);
    for (long cpu = 0; id >= 0 && cpu < cpus; ++cpu) {
      long fd = syscall(SYS_perf_event_open, &attr, -1, static_cast<int>(cpu), -1, 0);
      if (fd >= 0) fds_.push_back(static_cast<int>(fd));  // an offline CPU refuses: none there
    }
    EXPECT_FALSE(fds_.empty()) << "the witness could not open " << tracepoint;
  }
  ~MachineWideWitness() {
    for (int fd : fds_) close(fd);
  }
  long long Read() const {
    long long total = 0;
    for (int fd : fds_) {
      long long value = 0;
      EXPECT_EQ(read(fd, &value, sizeof value), static_cast<ssize_t>(sizeof value));
      total += value;
    }
    return total;
  }

 private:
  std::vector<int> fds_;
};

// `got` counted `made` calls of this process: exactly, or, system-wide (with a witness opened
// before the program), at least `made` and at most what the witness saw until now. Clears
// `*quiet` when others called in the window.
void ExpectCount(long long got, long long made, const MachineWideWitness *witness, bool *quiet,
                 const char *what) {
  if (!witness) {
    EXPECT_EQ(got, made) << what;
    return;
  }
  const long long seen = witness->Read();
  EXPECT_GE(got, made) << what << ": a call of this process was lost";
  EXPECT_LE(got, seen) << what << ": more than the kernel saw on all CPUs in a wider window";
  if (seen == made) {
    EXPECT_EQ(got, made) << what << ": no other process called, so the count is exact";
  } else {
    *quiet = false;
  }
}

// One scope's _mx/_mm calls on a fixed target.
struct MxScope {
  std::string name;
  std::function<int(pm_prog_mx_t *)> set_mx;
  std::function<int(pm_prog_mm_t *)> set_mm;
  std::function<int(pm_prog_mx_t *)> get_mx;
  std::function<int(pm_prog_mm_t *)> get_mm;
  std::function<int(pm_data_mx_t *)> read_mx;
  std::function<int(pm_data_mx_t *, timebasestruct_t *)> tread_mx;
  std::function<int()> del;
};

MxScope SystemWide() {
  return {"system_wide",      &pm_set_program_mx, &pm_set_program_mm, &pm_get_program_mx,
          &pm_get_program_mm, &pm_get_data_mx,    &pm_get_tdata_mx,   &pm_delete_program};
}

MxScope MyThread() {
  return {"mythread",
          &pm_set_program_mythread_mx,
          &pm_set_program_mythread_mm,
          &pm_get_program_mythread_mx,
          &pm_get_program_mythread_mm,
          &pm_get_data_mythread_mx,
          &pm_get_tdata_mythread_mx,
          &pm_delete_program_mythread};
}

MxScope MyGroup() {
  return {"mygroup",
          &pm_set_program_mygroup_mx,
          &pm_set_program_mygroup_mm,
          &pm_get_program_mygroup_mx,
          &pm_get_program_mygroup_mm,
          &pm_get_data_mygroup_mx,
          &pm_get_tdata_mygroup_mx,
          &pm_delete_program_mygroup};
}

MxScope Thread(pid_t p) {
  return {"thread",
          [p](pm_prog_mx_t *x) { return pm_set_program_thread_mx(p, p, x); },
          [p](pm_prog_mm_t *m) { return pm_set_program_thread_mm(p, p, m); },
          [p](pm_prog_mx_t *x) { return pm_get_program_thread_mx(p, p, x); },
          [p](pm_prog_mm_t *m) { return pm_get_program_thread_mm(p, p, m); },
          [p](pm_data_mx_t *d) { return pm_get_data_thread_mx(p, p, d); },
          [p](pm_data_mx_t *d, timebasestruct_t *t) { return pm_get_tdata_thread_mx(p, p, d, t); },
          [p] { return pm_delete_program_thread(p, p); }};
}

MxScope Pthread(pid_t p) {
  return {
      "pthread",
      [p](pm_prog_mx_t *x) { return pm_set_program_pthread_mx(p, p, 0, x); },
      [p](pm_prog_mm_t *m) { return pm_set_program_pthread_mm(p, p, 0, m); },
      [p](pm_prog_mx_t *x) { return pm_get_program_pthread_mx(p, p, 0, x); },
      [p](pm_prog_mm_t *m) { return pm_get_program_pthread_mm(p, p, 0, m); },
      [p](pm_data_mx_t *d) { return pm_get_data_pthread_mx(p, p, 0, d); },
      [p](pm_data_mx_t *d, timebasestruct_t *t) { return pm_get_tdata_pthread_mx(p, p, 0, d, t); },
      [p] { return pm_delete_program_pthread(p, p, 0); }};
}

MxScope Group(pid_t p) {
  return {"group",
          [p](pm_prog_mx_t *x) { return pm_set_program_group_mx(p, p, x); },
          [p](pm_prog_mm_t *m) { return pm_set_program_group_mm(p, p, m); },
          [p](pm_prog_mx_t *x) { return pm_get_program_group_mx(p, p, x); },
          [p](pm_prog_mm_t *m) { return pm_get_program_group_mm(p, p, m); },
          [p](pm_data_mx_t *d) { return pm_get_data_group_mx(p, p, d); },
          [p](pm_data_mx_t *d, timebasestruct_t *t) { return pm_get_tdata_group_mx(p, p, d, t); },
          [p] { return pm_delete_program_group(p, p); }};
}

MxScope Pgroup(pid_t p) {
  return {
      "pgroup",
      [p](pm_prog_mx_t *x) { return pm_set_program_pgroup_mx(p, p, 0, x); },
      [p](pm_prog_mm_t *m) { return pm_set_program_pgroup_mm(p, p, 0, m); },
      [p](pm_prog_mx_t *x) { return pm_get_program_pgroup_mx(p, p, 0, x); },
      [p](pm_prog_mm_t *m) { return pm_get_program_pgroup_mm(p, p, 0, m); },
      [p](pm_data_mx_t *d) { return pm_get_data_pgroup_mx(p, p, 0, d); },
      [p](pm_data_mx_t *d, timebasestruct_t *t) { return pm_get_tdata_pgroup_mx(p, p, 0, d, t); },
      [p] { return pm_delete_program_pgroup(p, p, 0); }};
}

class MxEntryPoints : public GetppidTest {
 protected:
  void AfterInitialize() override {
    rare_ = EventId(kRareSyscall);
    task_clock_ = EventId("task-clock");
  }

  // Set 0 counts `event` alone, set 1 `event` and task-clock, each on counter 0.
  void MakeSets(int event, pm_prog_mx_t *prog) {
    for (int s = 0; s < 2; ++s) {
      for (int c = 0; c < MAX_COUNTERS; ++c) sets_[s][c] = COUNT_NOTHING;
      sets_[s][0] = event;
    }
    sets_[1][1] = task_clock_;
    *prog = {};
    prog->mode.w = PM_USER | PM_KERNEL | PM_COUNT;
    prog->slice_duration = kLongSliceMs;
    prog->nb_events_prog = 2;
    prog->events_set = sets_;
  }

  // The whole life of a multiplexed program on `scope`, with `calls` making N counted calls.
  // With `machine_wide`, the counts are checked against a witness of `tracepoint` (above), and
  // `*quiet` is cleared when another process called it meanwhile.
  void CheckMultiplexed(const MxScope &scope, int event, const std::function<void(long)> &calls,
                        const char *tracepoint = nullptr, bool *quiet = nullptr) {
    SCOPED_TRACE(scope.name);
    std::unique_ptr<MachineWideWitness> witness;
    if (tracepoint) witness = std::make_unique<MachineWideWitness>(tracepoint);
    pm_prog_mx_t prog;
    MakeSets(event, &prog);
    ASSERT_EQ(scope.set_mx(&prog), 0) << pm_strerror("set_mx", scope.set_mx(&prog));
    calls(37);

    pm_data_mx_t data = {};
    ASSERT_EQ(scope.read_mx(&data), 0);
    ASSERT_EQ(data.nb_accu_mx, 2);
    ASSERT_NE(data.accu_set, nullptr);
    ExpectCount(data.accu_set[0].accu_data[0], 37, witness.get(), quiet, "set 0 counted all along");
    EXPECT_EQ(data.accu_set[1].accu_data[0], 0) << "set 1 never had its slice";
    free(data.accu_set);

    timebasestruct_t stamp = {};
    pm_data_mx_t timed = {};
    ASSERT_EQ(scope.tread_mx(&timed, &stamp), 0);
    ExpectCount(timed.accu_set[0].accu_data[0], 37, witness.get(), quiet, "the timed read");
    EXPECT_NE(stamp.tb_high | stamp.tb_low, 0u) << "the read's time stamp";
    free(timed.accu_set);
    EXPECT_EQ(scope.tread_mx(&timed, nullptr), Pmapi_InvalidArg);

    pm_prog_mx_t got = {};
    ASSERT_EQ(scope.get_mx(&got), 0);
    EXPECT_EQ(got.nb_events_prog, 2);
    EXPECT_EQ(got.slice_duration, kLongSliceMs);
    ASSERT_NE(got.events_set, nullptr);
    EXPECT_EQ(got.events_set[0][0], event);
    EXPECT_EQ(got.events_set[1][1], task_clock_);
    free(got.events_set);
    EXPECT_EQ(scope.del(), 0);
  }

  // A multi-mode program: the same event user-only in set 0 and kernel-only in set 1.
  void CheckMultiMode(const MxScope &scope, int event) {
    SCOPED_TRACE(scope.name);
    pm_prog_t modes[2];
    for (int s = 0; s < 2; ++s) {
      modes[s] = MakeProgram({event}, s == 0 ? PM_USER | PM_COUNT : PM_KERNEL | PM_COUNT);
    }
    pm_prog_mm_t prog = {kLongSliceMs, 2, modes};
    ASSERT_EQ(scope.set_mm(&prog), 0) << pm_strerror("set_mm", 0);
    pm_prog_mm_t got = {};
    ASSERT_EQ(scope.get_mm(&got), 0);
    EXPECT_EQ(got.nb_set_prog, 2);
    ASSERT_NE(got.prog_set, nullptr);
    EXPECT_EQ(got.prog_set[0].events[0], event);
    EXPECT_TRUE(got.prog_set[0].mode.b.user && !got.prog_set[0].mode.b.kernel);
    EXPECT_TRUE(got.prog_set[1].mode.b.kernel && !got.prog_set[1].mode.b.user);
    free(got.prog_set);
    pm_data_mx_t data = {};
    ASSERT_EQ(scope.read_mx(&data), 0);
    EXPECT_EQ(data.nb_accu_mx, 2);
    free(data.accu_set);
    EXPECT_EQ(scope.del(), 0);
  }

  int rare_ = COUNT_NOTHING;
  int task_clock_ = COUNT_NOTHING;
  pm_events_prog_t sets_[2];
};

TEST_F(MxEntryPoints, SystemWideWithItsCpuAndLcpuReads) {
  if (getppid_ == COUNT_NOTHING) return;
  const MxScope scope = SystemWide();
  bool quiet = false;
  for (int attempt = 0; attempt < kAttempts && !quiet && !HasFatalFailure(); ++attempt) {
    quiet = true;
    CheckMultiplexed(
        scope, rare_, [](long n) { CallRareSyscall(n); }, kRareSyscall, &quiet);
    CheckMultiMode(scope, rare_);

    MachineWideWitness witness(kRareSyscall);
    pm_prog_mx_t prog;
    MakeSets(rare_, &prog);
    ASSERT_EQ(pm_set_program_mx(&prog), 0);
    CallRareSyscall(23);
    long long by_cpu = 0, by_lcpu = 0, by_tcpu = 0, by_tlcpu = 0;
    const int cpus = static_cast<int>(sysconf(_SC_NPROCESSORS_ONLN));
    for (int i = 0; i < cpus; ++i) {
      pm_data_mx_t data = {};
      timebasestruct_t stamp;
      ASSERT_EQ(pm_get_data_cpu_mx(i, &data), 0);
      by_cpu += data.accu_set[0].accu_data[0];
      free(data.accu_set);
      ASSERT_EQ(pm_get_tdata_cpu_mx(i, &data, &stamp), 0);
      by_tcpu += data.accu_set[0].accu_data[0];
      free(data.accu_set);
      // Linux CPU numbers: on this machine every CPU up to the count is online.
      ASSERT_EQ(pm_get_data_lcpu_mx(i, &data), 0);
      by_lcpu += data.accu_set[0].accu_data[0];
      free(data.accu_set);
      ASSERT_EQ(pm_get_tdata_lcpu_mx(i, &data, &stamp), 0);
      by_tlcpu += data.accu_set[0].accu_data[0];
      free(data.accu_set);
    }
    ExpectCount(by_cpu, 23, &witness, &quiet, "pm_get_data_cpu_mx over every CPU");
    ExpectCount(by_tcpu, 23, &witness, &quiet, "pm_get_tdata_cpu_mx over every CPU");
    ExpectCount(by_lcpu, 23, &witness, &quiet, "pm_get_data_lcpu_mx over every CPU");
    ExpectCount(by_tlcpu, 23, &witness, &quiet, "pm_get_tdata_lcpu_mx over every CPU");
    EXPECT_EQ(pm_delete_program(), 0);
  }
  if (!quiet) {
    printf(
        "note: another process called %s in each of %d attempts: the counts were checked "
        "between the test's calls and the kernel's machine-wide count, not for exactness\n",
        kRareSyscall, kAttempts);
  }
}

TEST_F(MxEntryPoints, TheCallingThreadAndItsGroup) {
  if (getppid_ == COUNT_NOTHING) return;
  for (const MxScope &scope : {MyThread(), MyGroup()}) {
    CheckMultiplexed(scope, getppid_, [](long n) { CallGetppid(n); });
    CheckMultiMode(scope, getppid_);
  }
}

TEST_F(MxEntryPoints, AnotherProcessAndItsGroup) {
  if (getppid_ == COUNT_NOTHING) return;
  CallingChild child;
  ASSERT_TRUE(child.ok());
  const pid_t p = child.pid();
  for (const MxScope &scope : {Thread(p), Pthread(p), Group(p), Pgroup(p)}) {
    CheckMultiplexed(scope, getppid_, [&child](long n) { ASSERT_TRUE(child.Calls(n)); });
    CheckMultiMode(scope, getppid_);
  }
}

}  // namespace
