/* SPDX-License-Identifier: MIT */
// Shared set-up for the counting tests: initialize the library, look events
// up by name, build programs, make an exact number of getppid() calls.
#pragma once

#include <sys/types.h>

#include <string>

#include "pmapi.h"
#include "support/make_program.h"  // MakeProgram, shared with the guest suite
#include "support/sanitizers.h"

namespace pmapi_test {

// Mounts tracefs if needed (root only) and initializes with every status.
// Returns false when the test cannot go on: with a googletest failure if
// pm_initialize failed, or skipped with the reason when the machine cannot
// run it (no readable tracefs: the exact counts use a tracepoint, which needs
// root or a tracefs readable by the user). Call it as
//   if (!InitializeAll()) return;
// (ASSERT_TRUE(InitializeAll()) still works, but turns a skip into a failure.)
bool InitializeAll();

// The catalog id for a short name; fails the test (and returns
// COUNT_NOTHING) when the catalog lacks it.
int EventId(const std::string &short_name);

// Exactly `n` getppid system calls (through syscall(2): libc cannot cache).
void CallGetppid(long n);

// Sets `prog` on the calling thread, makes exactly `n` getppid calls between a start and a stop,
// and reads the data into `data`; the program stays set. False (with a googletest failure
// naming the call and its message) when any call failed.
bool CountGetppidOnMyThread(pm_prog_t *prog, long n, pm_data_t *data);

// The tracepoint behind the exact tests.
constexpr const char kGetppid[] = "syscalls:sys_enter_getppid";

// A system call no library, daemon or other test on the machine makes
// (glibc never calls it by itself; everyone's tests use getppid): the
// system-wide tests count it exactly, where getppid would also count every
// other process's calls. The tests that use it share a ctest RESOURCE_LOCK
// (tests/CMakeLists.txt), so that they never run at the same time; two runs of the suite at
// once on one machine can still disturb each other (rerun).
constexpr const char kRareSyscall[] = "syscalls:sys_enter_sched_rr_get_interval";

// Exactly `n` sched_rr_get_interval system calls.
void CallRareSyscall(long n);

// Runs `body` in a forked child and returns its exit status (-1 if it was
// killed). The child should _exit(0) on success.
template <typename Body>
int InChild(Body body);

// Writes one byte to each of `pages` fresh anonymous pages, with transparent
// huge pages off for them (MADV_NOHUGEPAGE): exactly one user-mode page
// fault per page, whatever /sys/kernel/mm/transparent_hugepage says.
// Returns false if the memory could not be mapped.
bool TouchFreshPages(long pages);

// Whether this build runs under ASan or TSan, whose shadow memory takes page faults of its own
// (TSan several per application page).
#ifdef PMAPI_UNDER_SANITIZER
constexpr bool kUnderSanitizer = true;
#else
constexpr bool kUnderSanitizer = false;
#endif

// How many page faults besides one per page TouchFreshPages(pages) may add: a library page
// or the stack growing (1% + 32), or the sanitizer's shadow memory.
inline long FaultSlack(long pages) { return kUnderSanitizer ? pages * 5 : pages / 100 + 32; }

// Drops to the unprivileged user `nobody`; returns false if impossible.
bool DropToNobody();

// The number of perf_event descriptors open in this process, less the
// tracepoint anchors libpmapi keeps (src/core/tracepoint_anchors.h; their
// number is pmapi::TracepointAnchorCount()) unless `with_anchors`.
int CountPerfDescriptors(bool with_anchors = false);

}  // namespace pmapi_test

#include <sys/wait.h>
#include <unistd.h>

template <typename Body>
int pmapi_test::InChild(Body body) {
  pid_t pid = fork();
  if (pid == 0) {
    body();
    _exit(0);
  }
  int status = 0;
  if (pid < 0 || waitpid(pid, &status, 0) != pid) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}
