// SPDX-License-Identifier: MIT
// What an unprivileged user (a forked child that became `nobody`, with the machine's
// kernel.perf_event_paranoid, 2 on the CI machines) may and may not count. Complements
// counting_thread_test.cpp (another user's thread via _thread, system-wide refused, own thread
// in user mode) and counting_system_test.cpp (proctree): here kernel mode, the other third-party
// families (_pthread, _group, _pgroup), and exact-enough user-mode counts of the user's own
// threads and processes. Every refusal must be Pmapi_Permission naming
// kernel.perf_event_paranoid (with its value) and CAP_PERFMON, and leave no descriptor.
#include <gtest/gtest.h>
#include <signal.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>
#include <thread>

#include "support/child_process.h"
#include "support/counting.h"

using namespace pmapi_test;

namespace {

constexpr long kPages = 256;
// The slack is for copy-on-write faults after fork; under a sanitizer, also its shadow pages
// (TSan maps several per application page: 864 faults for 256 pages here).
constexpr long kMaxFaults = kUnderSanitizer ? kPages * 6 : kPages * 3 / 2;

// Touches `kPages` fresh anonymous pages: that many user-mode page faults, give or take what
// the code around it faults in (huge pages are turned off for the mapping).
void FaultPages() {
  const long page = sysconf(_SC_PAGESIZE);
  char *memory = static_cast<char *>(
      mmap(nullptr, kPages * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
  if (memory == MAP_FAILED) _exit(90);
  madvise(memory, kPages * page, MADV_NOHUGEPAGE);
  for (long i = 0; i < kPages; ++i) static_cast<volatile char *>(memory)[i * page] = 1;
  munmap(memory, kPages * page);
}

// In a child: fails with `code` (printing why) unless `rc` is a privilege refusal that says
// what to do; also checks that nothing stayed open.
void ExpectRefused(int rc, const char *call, int code) {
  const std::string message = pm_strerror(call, rc);
  const std::string paranoid = "kernel.perf_event_paranoid is ";
  if (rc != Pmapi_Permission || message.find(paranoid) == std::string::npos ||
      message.find("CAP_PERFMON") == std::string::npos || CountPerfDescriptors() != 0) {
    fprintf(stderr, "%s: rc %d, %d perf descriptors: %s\n", call, rc, CountPerfDescriptors(),
            message.c_str());
    _exit(code);
  }
}

// In a child: fails with `code` unless a user-mode page-fault count is about kPages.
void ExpectPages(int rc, const pm_data_t &data, const char *what, int code) {
  if (rc != 0 || data.accu[0] < kPages || data.accu[0] > kMaxFaults) {
    fprintf(stderr, "%s: rc %d (%s), %lld page faults for %ld pages\n", what, rc,
            pm_strerror(what, rc), data.accu[0], kPages);
    _exit(code);
  }
}

// DropToNobody, and makes the process dumpable again. setuid() from root clears the dumpable
// flag (fs.suid_dumpable), and the kernel's ptrace-access check then refuses to let the process
// count even its own children; a user's ordinary processes are dumpable, which is the case
// these tests are about. (A daemon that drops root meets the refusal: docs/reliability.md.)
bool BecomeOrdinaryUser() { return DropToNobody() && prctl(PR_SET_DUMPABLE, 1) == 0; }

class Unprivileged : public ::testing::Test {
 protected:
  void SetUp() override {
    // The catalog is built here, as root: tracefs stays unreadable to `nobody`.
    if (geteuid() != 0) GTEST_SKIP() << "these tests drop from root to nobody: run as root";
    if (!InitializeAll()) return;
    faults_ = EventId("page-faults");
    clock_ = EventId("task-clock");
  }
  int faults_ = COUNT_NOTHING;
  int clock_ = COUNT_NOTHING;
};

TEST_F(Unprivileged, KernelModeIsRefusedEvenOnItsOwnThread) {
  const int status = InChild([&] {
    if (!BecomeOrdinaryUser()) _exit(10);
    pm_prog_t prog = MakeProgram({clock_}, PM_KERNEL);
    ExpectRefused(pm_set_program_mythread(&prog), "kernel only", 11);
    prog = MakeProgram({clock_}, PM_USER | PM_KERNEL);
    ExpectRefused(pm_set_program_mythread(&prog), "user and kernel", 12);
    ExpectRefused(pm_set_program_mygroup(&prog), "mygroup, user and kernel", 13);
    pm_data_t data;
    if (pm_get_data_mythread(&data) != Pmapi_NoSetProg) _exit(14);
    prog = MakeProgram({clock_}, PM_USER);
    if (pm_set_program_mythread(&prog) != 0) _exit(15);  // and user mode is fine
    if (pm_delete_program_mythread() != 0) _exit(16);
    _exit(0);
  });
  EXPECT_EQ(status, 0);
}

TEST_F(Unprivileged, SystemWideIsRefusedInEveryMode) {
  const int status = InChild([&] {
    if (!BecomeOrdinaryUser()) _exit(10);
    for (int mode : {PM_USER, PM_USER | PM_COUNT, PM_USER | PM_KERNEL | PM_COUNT}) {
      pm_prog_t prog = MakeProgram({clock_, faults_}, mode);
      ExpectRefused(pm_set_program(&prog), "pm_set_program", 11);
    }
    pm_data_t data;
    if (pm_get_data(&data) != Pmapi_NoSetProg) _exit(12);
    _exit(0);
  });
  EXPECT_EQ(status, 0);
}

TEST_F(Unprivileged, EveryThirdPartyFamilyIsRefusedOnAnotherUsersProcess) {
  const pid_t root_pid = getpid();  // this test process stays root
  const int status = InChild([&] {
    if (!BecomeOrdinaryUser()) _exit(10);
    pm_prog_t prog = MakeProgram({clock_}, PM_USER | PM_COUNT);
    ExpectRefused(pm_set_program_thread(root_pid, root_pid, &prog), "_thread", 11);
    ExpectRefused(pm_set_program_pthread(root_pid, root_pid, 0, &prog), "_pthread", 12);
    ExpectRefused(pm_set_program_group(root_pid, root_pid, &prog), "_group", 13);
    ExpectRefused(pm_set_program_pgroup(root_pid, root_pid, 0, &prog), "_pgroup", 14);
    pm_data_t data;
    if (pm_get_data_thread(root_pid, root_pid, &data) != Pmapi_NoSetProg) _exit(15);
    if (pm_get_data_group(root_pid, root_pid, &data) != Pmapi_NoSetProg) _exit(16);
    _exit(0);
  });
  EXPECT_EQ(status, 0);
}

TEST_F(Unprivileged, OwnThreadsCountInUserMode) {
  const int status = InChild([&] {
    if (!BecomeOrdinaryUser()) _exit(10);
    pm_prog_t prog = MakeProgram({faults_}, PM_USER | PM_COUNT);
    if (pm_set_program_mythread(&prog) != 0) _exit(11);
    FaultPages();
    pm_data_t data;
    ExpectPages(pm_get_data_mythread(&data), data, "_mythread", 12);
    if (pm_delete_program_mythread() != 0) _exit(13);

    // Another thread of the same process, through the third-party family.
    pid_t tid = 0;
    int ready[2], go[2];
    if (pipe(ready) != 0 || pipe(go) != 0) _exit(14);
    std::thread helper([&] {
      pid_t self = gettid();
      char byte;
      (void)!write(ready[1], &self, sizeof self);
      if (read(go[0], &byte, 1) == 1) FaultPages();
      (void)!write(ready[1], &self, sizeof self);
    });
    if (read(ready[0], &tid, sizeof tid) != sizeof tid) _exit(15);
    int rc = pm_set_program_thread(getpid(), tid, &prog);
    if (rc != 0) {
      fprintf(stderr, "%s\n", pm_strerror("_thread on own thread", rc));
      _exit(16);
    }
    (void)!write(go[1], "x", 1);
    if (read(ready[0], &tid, sizeof tid) != sizeof tid) _exit(17);
    ExpectPages(pm_get_data_thread(getpid(), tid, &data), data, "_thread on own thread", 18);
    helper.join();
    if (pm_delete_program_thread(getpid(), tid) != 0) _exit(19);
    _exit(CountPerfDescriptors() == 0 ? 0 : 20);
  });
  EXPECT_EQ(status, 0);
}

TEST_F(Unprivileged, OwnChildProcessCountsInUserMode) {
  const int status = InChild([&] {
    if (!BecomeOrdinaryUser()) _exit(10);
    for (bool group : {false, true}) {
      // Same user: the kernel's ptrace check lets us count it.
      CallingChild target([] { FaultPages(); });
      if (!target.ok()) _exit(11);
      const pid_t child = target.pid();
      pm_prog_t prog = MakeProgram({faults_}, PM_USER | PM_COUNT);
      int rc = group ? pm_set_program_group(child, child, &prog)
                     : pm_set_program_thread(child, child, &prog);
      if (rc != 0) {
        fprintf(stderr, "%s\n", pm_strerror(group ? "_group" : "_thread", rc));
        _exit(12);
      }
      if (!target.Go()) _exit(13);
      pm_data_t data;
      rc = group ? pm_get_data_group(child, child, &data) : pm_get_data_thread(child, child, &data);
      ExpectPages(rc, data, group ? "_group on own child" : "_thread on own child", 14);
      rc = group ? pm_delete_program_group(child, child) : pm_delete_program_thread(child, child);
      if (rc != 0) _exit(15);
    }
    _exit(CountPerfDescriptors() == 0 ? 0 : 16);
  });
  EXPECT_EQ(status, 0);
}

}  // namespace
