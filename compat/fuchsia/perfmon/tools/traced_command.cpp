// SPDX-License-Identifier: MIT
#include "traced_command.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

namespace cpuperf {
namespace {

sigset_t g_original_mask;
bool g_blocked = false;

sigset_t WaitedSignals() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGCHLD);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGHUP);
  return set;
}

double Now() {
  timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) / 1e9;
}

}  // namespace

void BlockWaitedSignals() {
  const sigset_t set = WaitedSignals();
  g_blocked = sigprocmask(SIG_BLOCK, &set, &g_original_mask) == 0;
}

TracedCommand::TracedCommand(const std::vector<std::string> &argv) {
  if (pipe2(go_, O_CLOEXEC) != 0) return;
  std::vector<char *> args;
  for (const std::string &arg : argv) args.push_back(const_cast<char *>(arg.c_str()));
  args.push_back(nullptr);
  pid_ = fork();
  if (pid_ == 0) {
    if (g_blocked) sigprocmask(SIG_SETMASK, &g_original_mask, nullptr);
    char byte;
    if (read(go_[0], &byte, 1) != 1) _exit(127);
    execvp(args[0], args.data());
    const int err = errno;
    // write(2) only: between fork and exec nothing that may allocate or take a lock.
    const char *parts[] = {"cpuperf: ", args[0], ": ", strerror(err), "\n"};
    for (const char *part : parts) (void)!write(2, part, strlen(part));
    _exit(err == ENOENT ? 127 : 126);
  }
  close(go_[0]);
  go_[0] = -1;
}

TracedCommand::~TracedCommand() {
  if (pid_ > 0 && !reaped_) {
    kill(pid_, SIGKILL);
    int status;
    while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
  }
  if (go_[1] >= 0) close(go_[1]);
}

void TracedCommand::Go() {
  (void)!write(go_[1], "g", 1);
  close(go_[1]);
  go_[1] = -1;
}

bool TracedCommand::Reap() {
  if (reaped_) return true;
  int status = 0;
  if (waitpid(pid_, &status, WNOHANG) != pid_) return false;
  if (!WIFEXITED(status) && !WIFSIGNALED(status)) return false;
  reaped_ = true;
  exit_status_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return true;
}

void TracedCommand::Forward(const siginfo_t &info) {
  if (reaped_) return;
  // ^C from the terminal reaches the whole foreground process group: the command has it
  // already, and a second one could make a shell or an interpreter act twice.
  if (info.si_code == SI_KERNEL && getpgid(pid_) == getpgrp()) return;
  kill(pid_, info.si_signo);
}

int WaitFor(TracedCommand *command, double seconds) {
  const sigset_t set = WaitedSignals();
  const double deadline = Now() + seconds;
  int first = 0;
  for (;;) {
    if (command && command->Reap()) return first;
    double left = 0.1;  // with a command: look again now and then, should a SIGCHLD be missed
    if (!command) {
      left = deadline - Now();
      if (left <= 0) return first;
    }
    timespec timeout{
        static_cast<time_t>(left),
        static_cast<long>((left - static_cast<double>(static_cast<time_t>(left))) * 1e9)};
    siginfo_t info;
    const int sig = sigtimedwait(&set, &info, &timeout);
    if (sig < 0 || sig == SIGCHLD) continue;  // timeout, EINTR, or a child changed state
    if (!first) first = sig;
    if (!command) return sig;
    command->Forward(info);
  }
}

}  // namespace cpuperf
