/* SPDX-License-Identifier: MIT */
// The one child process the counting tests count from outside: it makes
// exactly the getppid() calls it is told to, when it is told to, and
// nothing else (it blocks in read(2) between commands). Go / Calls(N) /
// Finish, so that a test can count a stranger's exact calls, then read its
// totals after it exited.
#pragma once

#include <sys/types.h>

#include <functional>

#include "support/counting.h"

namespace pmapi_test {

class CallingChild {
 public:
  // Forks. `calls_on_go` is what Go() asks for; `call` makes the calls (getppid by default,
  // CallRareSyscall for a test that counts machine-wide).
  explicit CallingChild(long calls_on_go = 0, void (*call)(long) = &CallGetppid);
  // Forks; Go() runs `on_go` in the child instead (calls, threads, a grandchild: whatever the
  // test needs counted). The body may _exit(code) to report a failure through Finish().
  explicit CallingChild(std::function<void()> on_go);
  // Kills and reaps the child if Finish() was not called.
  ~CallingChild();
  CallingChild(const CallingChild &) = delete;
  CallingChild &operator=(const CallingChild &) = delete;

  pid_t pid() const { return pid_; }
  bool ok() const { return pid_ > 0; }

  // The child makes exactly `n` getppid calls; returns once it has made
  // them (false if the child is gone).
  bool Calls(long n);
  // Calls(calls_on_go), or runs on_go; returns once done.
  bool Go();
  // The child exits (status 0) and is reaped; pid() still names it, so
  // that its totals can be read after the exit. Returns the exit status,
  // -1 if it was killed or already reaped.
  int Finish();

 private:
  pid_t pid_ = -1;
  bool reaped_ = false;
  long calls_on_go_ = 0;
  void (*call_)(long) = &CallGetppid;
  std::function<void()> on_go_;
  int command_ = -1;  // parent -> child: a long, the number of calls
  int done_ = -1;     // child -> parent: one byte per command carried out

  void Start();
  static constexpr long kRunBody = -1;  // the command that runs on_go
};

}  // namespace pmapi_test
