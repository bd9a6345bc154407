/* SPDX-License-Identifier: MIT */
// The command cpuperf traces, and the wait for it that passes on the signals meant for it.
//
// cpuperf blocks SIGINT, SIGTERM, SIGHUP and SIGCHLD from its start (BlockWaitedSignals, before
// any thread exists, so every thread has them blocked) and takes them with sigtimedwait while it
// waits: a ^C or a kill then stops the trace in order (the command is told, the buffers and the
// session result are written) instead of killing cpuperf and leaving the command running alone.
#pragma once

#include <signal.h>
#include <sys/types.h>

#include <string>
#include <vector>

namespace cpuperf {

void BlockWaitedSignals();

// Forks the command held before exec (with cpuperf's original signal mask back); Go() lets it
// exec. Its destructor kills and reaps a command still running.
class TracedCommand {
 public:
  explicit TracedCommand(const std::vector<std::string> &argv);
  ~TracedCommand();
  TracedCommand(const TracedCommand &) = delete;
  TracedCommand &operator=(const TracedCommand &) = delete;

  pid_t pid() const { return pid_; }
  void Go();
  // Reaps the command if it has exited; true once it has.
  bool Reap();
  // After Reap: the status for cpuperf, the command's or 128 + the signal that killed it.
  int exit_status() const { return exit_status_; }
  // Passes a signal on, unless the command already got it from the terminal.
  void Forward(const siginfo_t &info);

 private:
  pid_t pid_ = -1;
  int go_[2] = {-1, -1};
  bool reaped_ = false;
  int exit_status_ = 0;
};

// Waits until `command` exits, or without a command for `seconds` or until a SIGINT, SIGTERM
// or SIGHUP. Signals that come meanwhile go on to the command. Returns the first such signal,
// or 0 when none came.
int WaitFor(TracedCommand *command, double seconds);

}  // namespace cpuperf
