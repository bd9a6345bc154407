// Shared set-up for the counting tests: initialize the library, look events
// up by name, build programs, make an exact number of getppid() calls.
#pragma once

#include <sys/types.h>

#include <initializer_list>
#include <string>

#include "pmapi.h"

namespace pmapi_test {

// Mounts tracefs if needed (root only) and initializes with every status.
// Returns false (with a googletest failure) if that is impossible.
bool InitializeAll();

// The catalog id for a short name; fails the test (and returns
// COUNT_NOTHING) when the catalog lacks it.
int EventId(const std::string &short_name);

// A program counting `ids` on counters 0, 1, ... with `mode` bits.
pm_prog_t MakeProgram(std::initializer_list<int> ids, int mode);

// Exactly `n` getppid system calls (through syscall(2): libc cannot cache).
void CallGetppid(long n);

// The tracepoint behind the exact tests.
constexpr const char kGetppid[] = "syscalls:sys_enter_getppid";

// Runs `body` in a forked child and returns its exit status (-1 if it was
// killed). The child should _exit(0) on success.
template <typename Body>
int InChild(Body body);

// Drops to the unprivileged user `nobody`; returns false if impossible.
bool DropToNobody();

// The number of perf_event descriptors open in this process, less the
// tracepoint anchors libpmapi keeps (src/core/tracepoint_anchors.h; their
// number is pmapi::TracepointAnchorCount()).
int CountPerfDescriptors();

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
