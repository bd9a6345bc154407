// SPDX-License-Identifier: MIT
// Out of memory, every entry point answers Pmapi_Malloc_Err (or succeeds) instead of aborting
// the client with an uncaught std::bad_alloc. This binary replaces malloc with one that fails
// after a chosen number of allocations; each case runs in a forked child, once for every
// allocation the calls make, so that each of them is the one that fails in some case.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <string>

#include "support/counting.h"
#include "support/cpu_numbers.h"
#include "support/sanitizers.h"

namespace {
// Allocations left before malloc fails; negative: never fail.
long g_allocations_left = -1;
long g_allocations_made = 0;

#ifndef PMAPI_SANITIZER_OWNS_MALLOC
bool Refuse() {
  ++g_allocations_made;
  if (g_allocations_left < 0) return false;
  if (g_allocations_left == 0) return true;
  --g_allocations_left;
  return false;
}
#endif
}  // namespace

#ifndef PMAPI_SANITIZER_OWNS_MALLOC
extern "C" {
void *__libc_malloc(size_t size);
void *__libc_calloc(size_t n, size_t size);
void *__libc_realloc(void *p, size_t size);

void *malloc(size_t size) {
  if (Refuse()) {
    errno = ENOMEM;
    return nullptr;
  }
  return __libc_malloc(size);
}
void *calloc(size_t n, size_t size) {
  if (Refuse()) {
    errno = ENOMEM;
    return nullptr;
  }
  return __libc_calloc(n, size);
}
void *realloc(void *p, size_t size) {
  if (Refuse()) {
    errno = ENOMEM;
    return nullptr;
  }
  return __libc_realloc(p, size);
}
}  // extern "C"
#endif

using namespace pmapi_test;

namespace {

// The calls under test: each must return 0 or Pmapi_Malloc_Err (or, once an earlier one
// failed, the code that follows from it). Returns a bit per call that answered something else.
using Calls = int (*)(int event);

int SetReadDeleteMyThread(int event) {
  pm_prog_t prog = MakeProgram({event}, PM_USER | PM_KERNEL | PM_COUNT);
  int bad = 0;
  const int set = pm_set_program_mythread(&prog);
  bad |= (set != 0 && set != Pmapi_Malloc_Err) << 0;
  pm_data_t data;
  const int read = pm_get_data_mythread(&data);
  bad |= (read != 0 && read != Pmapi_Malloc_Err && read != Pmapi_NoSetProg) << 1;
  const int del = pm_delete_program_mythread();
  bad |= (del != 0 && del != Pmapi_NoSetProg) << 2;
  (void)pm_strerror("oom", set);
  return bad;
}

int SetReadDeleteGroup(int event) {
  pm_prog_t prog = MakeProgram({event}, PM_USER | PM_KERNEL | PM_COUNT | PM_PROCESS);
  int bad = 0;
  const int set = pm_set_program_mygroup(&prog);
  bad |= (set != 0 && set != Pmapi_Malloc_Err) << 0;
  pm_data_t data;
  const int read = pm_get_data_mygroup(&data);
  bad |= (read != 0 && read != Pmapi_Malloc_Err && read != Pmapi_NoSetProg) << 1;
  const int del = pm_delete_program_mygroup();
  bad |= (del != 0 && del != Pmapi_NoSetProg && del != Pmapi_Malloc_Err) << 2;
  return bad;
}

int SetReadDeleteSystemWide(int event) {
  pm_prog_t prog = MakeProgram({event}, PM_USER | PM_KERNEL | PM_COUNT);
  int bad = 0;
  const int set = pm_set_program(&prog);
  bad |= (set != 0 && set != Pmapi_Malloc_Err) << 0;
  pm_data_t data;
  const int read = pm_get_data_cpu(0, &data);
  bad |= (read != 0 && read != Pmapi_Malloc_Err && read != Pmapi_NoSetProg) << 1;
  const int del = pm_delete_program();
  bad |= (del != 0 && del != Pmapi_NoSetProg && del != Pmapi_Malloc_Err) << 2;
  return bad;
}

// Runs `calls` in a child whose malloc fails after `allowed` allocations. The child's exit
// status is the bad-call bits; a crash (an uncaught bad_alloc aborts) is -signal.
int RunFailingAfter(Calls calls, int event, long allowed) {
  const pid_t child = fork();
  if (child == 0) {
    g_allocations_left = allowed;
    const int bad = calls(event);
    g_allocations_left = -1;
    _exit(bad);
  }
  int status = 0;
  if (waitpid(child, &status, 0) != child) return -1000;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
}

// How many allocations `calls` makes when nothing fails (run in a child: it changes state).
long AllocationsMade(Calls calls, int event) {
  int pipefd[2];
  if (pipe(pipefd) != 0) return -1;
  const pid_t child = fork();
  if (child == 0) {
    g_allocations_made = 0;
    calls(event);
    const long made = g_allocations_made;
    _exit(write(pipefd[1], &made, sizeof made) == sizeof made ? 0 : 1);
  }
  long made = -1;
  if (read(pipefd[0], &made, sizeof made) != sizeof made) made = -1;
  waitpid(child, nullptr, 0);
  close(pipefd[0]);
  close(pipefd[1]);
  return made;
}

class OutOfMemory : public ::testing::TestWithParam<std::pair<const char *, Calls>> {
 protected:
  void SetUp() override {
#ifdef PMAPI_SANITIZER_OWNS_MALLOC
    GTEST_SKIP() << "the sanitizer runtime owns malloc here, so it cannot be made to fail";
#endif
    if (!InitializeAll()) return;
    event_ = EventId(kGetppid);
    // hwloc, which numbers pm_get_data_cpu's CPUs, is loaded once per process on first need.
    // It is not ours to make robust (a failed malloc aborts inside its plugins' dlopen), so the
    // parent loads it before the children fail allocations.
    int cpus = 0;
    ASSERT_EQ(pm_get_cpu_count(&cpus), 0);
  }
  int event_ = COUNT_NOTHING;
};

TEST_P(OutOfMemory, EveryFailedAllocationIsAnErrorCodeNotACrash) {
  const Calls calls = GetParam().second;
  const long made = AllocationsMade(calls, event_);
  ASSERT_GT(made, 0) << "the calls allocate, so the failures below are real";
  for (long allowed = 0; allowed <= made; ++allowed) {
    const int result = RunFailingAfter(calls, event_, allowed);
    ASSERT_EQ(result, 0) << "with allocation " << allowed + 1 << " of " << made
                         << " failing: a negative value is the signal that killed the client, a "
                            "positive one the calls that answered neither 0 nor Pmapi_Malloc_Err";
  }
}

INSTANTIATE_TEST_SUITE_P(Families, OutOfMemory,
                         ::testing::Values(std::make_pair("mythread", &SetReadDeleteMyThread),
                                           std::make_pair("mygroup_process", &SetReadDeleteGroup),
                                           std::make_pair("system_wide", &SetReadDeleteSystemWide)),
                         [](const auto &param_info) {
                           return std::string(param_info.param.first);
                         });

TEST(OutOfMemoryCodes, TheCodeSaysOutOfMemory) {
  EXPECT_NE(std::string(pm_strerror("set", Pmapi_Malloc_Err)).find("out of memory"),
            std::string::npos);
}

}  // namespace
