/* SPDX-License-Identifier: MIT */
// The tools' one way to launch a command, hold it while the caller programs counters or a
// tracer on it, and wait for it while passing on the signals meant for it (pmcount, hpmcount,
// cpuperf, pmsample).
//
// The child asks to be traced (PTRACE_TRACEME) and execs; the kernel stops it right after the
// exec, before the program's first instruction. That is the AIX rule for third-party counting
// (the target is stopped under its debugger), and it starts the counts where perf stat's
// enable_on_exec does, so neither fork nor exec is counted. If tracing is refused (pmcount
// itself run under strace -f, a seccomp policy), the child stops itself with SIGSTOP before
// exec instead, and the exec is counted.
//
// A tracer that must see the exec itself (the program's mappings as it loads, cpuperf's and
// pmsample's records) holds the child before its exec instead: StartHeld, then Release.
#pragma once

#include <signal.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <functional>
#include <string>
#include <vector>

#include "base/clock.h"

namespace tools {

// The library's clock (base/clock.h), under the name the tools' wait loops use.
inline uint64_t NowNs() { return pmapi::MonotonicNanos(); }

// Blocks the signals pmcount waits for (SIGCHLD, SIGINT, SIGTERM, SIGHUP) so that they are
// taken with sigtimedwait, never by a handler in the middle of a pmapi call. Children get the
// original mask back before they exec.
void BlockWaitedSignals();

class Command {
 public:
  Command() = default;
  // A command StartHeld made is killed and reaped if it still runs: the tracer that held it
  // is giving up. One Start made goes on (pmcount's counts of it are already read).
  ~Command();
  Command(const Command &) = delete;
  Command &operator=(const Command &) = delete;

  // Forks, stops the child before its program runs, calls `arm(pid)`, and lets it run if arm
  // returned 0. If arm fails the child is killed and its code returned. If the command cannot
  // be executed, returns -1 with `exec_errno` set (ENOENT: not found).
  int Start(const std::vector<std::string> &argv, const std::function<int(pid_t)> &arm);

  // Forks the child held before its exec, with the caller's signal mask back; Release() lets
  // it exec. Returns 0, or -1 with `exec_errno` set (fork failed).
  int StartHeld(const std::vector<std::string> &argv);
  // Lets a held child exec. Returns 0 once it runs the program, or -1 when its exec failed
  // (`exec_errno` set; the child has exited and been reaped).
  int Release();

  pid_t pid() const { return pid_; }
  int exec_errno() const { return exec_errno_; }
  // After Start returned -1: says on stderr that `tool` cannot run the program, and returns
  // the shell's exit status for it (127 not found, 126 found but not executable).
  int ExplainExecFailure(const char *tool, const std::string &program) const;
  bool exited() const { return exited_; }
  // After exit: the exit status for pmcount (the command's, or 128 + signal).
  int exit_status() const;
  // After exit: whether a signal ended the command. Not exit_status() >= 128: a command may
  // well exit with 200 by itself.
  bool killed() const { return exited_ && WIFSIGNALED(wait_status_); }
  // After exit: "exited with status 3", "killed by SIGINT".
  std::string how_it_ended() const;
  const struct rusage &usage() const { return usage_; }

  // Called by the wait loop: reaps the child if it has exited. Returns true once it has.
  bool Reap();
  // Passes `signal` on unless the child already received it from the terminal.
  void Forward(const siginfo_t &info);
  // Sends SIGTERM (--interval-count reached while it still runs).
  void Terminate();

 private:
  pid_t pid_ = -1;
  int exec_errno_ = 0;
  bool exited_ = false;
  int wait_status_ = 0;
  struct rusage usage_ = {};
  int gate_fd_ = -1;    // held: the write end the child waits on before its exec
  int report_fd_ = -1;  // held: where the child says its exec failed (EOF: it worked)
  bool held_ = false;   // started by StartHeld
};

// Waits until `command` exits (or, with no command, until `deadline_ns`, 0 for none, or a
// SIGINT/SIGTERM/SIGHUP), calling `tick()` every `interval_ns` (0: never) on the way. When
// tick returns false (--interval-count reached), a wait without a command ends and a command
// gets SIGTERM, as perf stat does. `alive` (may be empty), asked at least every 100 ms: false
// when every attached target has exited, which ends a wait without a command.
// Returns the first SIGINT, SIGTERM or SIGHUP that came (passed on to a command), else 0.
int WaitLoop(Command *command, uint64_t deadline_ns, uint64_t interval_ns,
             const std::function<bool()> &tick, const std::function<bool()> &alive);

}  // namespace tools
