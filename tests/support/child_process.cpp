// SPDX-License-Identifier: MIT
#include "support/child_process.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "support/counting.h"

namespace pmapi_test {

CallingChild::CallingChild(long calls_on_go, void (*call)(long))
    : calls_on_go_(calls_on_go), call_(call) {
  Start();
}

CallingChild::CallingChild(std::function<void()> on_go) : on_go_(std::move(on_go)) { Start(); }

bool CallingChild::Go() { return on_go_ ? Calls(kRunBody) : Calls(calls_on_go_); }

void CallingChild::Start() {
  int command[2], done[2];
  if (pipe(command) != 0) return;
  if (pipe(done) != 0) {
    close(command[0]);
    close(command[1]);
    return;
  }
  pid_ = fork();
  if (pid_ == 0) {
    // Only system calls from here (and the test's own body): the parent may have other
    // threads, whose locks the child inherits held.
    close(command[1]);
    close(done[0]);
    // Ready: whatever starts in a child on its own (ThreadSanitizer's background thread) has
    // started, so that it is not a thread the test sees appear while it sets counters.
    if (write(done[1], "r", 1) != 1) _exit(1);
    long n;
    while (read(command[0], &n, sizeof n) == static_cast<ssize_t>(sizeof n)) {
      if (n == kRunBody) {
        if (on_go_) on_go_();
      } else {
        call_(n);
      }
      if (write(done[1], "x", 1) != 1) break;
    }
    _exit(0);
  }
  close(command[0]);
  close(done[1]);
  command_ = command[1];
  done_ = done[0];
  char ready;
  if (pid_ < 0 || read(done_, &ready, 1) != 1) Finish();
}

CallingChild::~CallingChild() {
  if (pid_ > 0 && !reaped_) kill(pid_, SIGKILL);
  Finish();
}

bool CallingChild::Calls(long n) {
  if (command_ < 0) return false;
  char byte;
  return write(command_, &n, sizeof n) == static_cast<ssize_t>(sizeof n) &&
         read(done_, &byte, 1) == 1;
}

int CallingChild::Finish() {
  if (command_ >= 0) close(command_);
  if (done_ >= 0) close(done_);
  command_ = done_ = -1;
  int status = 0;
  if (pid_ <= 0 || reaped_ || waitpid(pid_, &status, 0) != pid_) return -1;
  reaped_ = true;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace pmapi_test
