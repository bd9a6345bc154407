// SPDX-License-Identifier: MIT
#include "stopped_command.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

namespace tools {
namespace {

sigset_t g_original_mask;
bool g_blocked = false;

constexpr char kTraced = 'T';      // child: PTRACE_TRACEME worked, exec will stop it
constexpr char kSelfStop = 'S';    // child: stopping itself with SIGSTOP before exec
constexpr char kExecFailed = 'E';  // child: exec failed, errno follows
constexpr char kRefused = 'R';     // vfork child: tracing refused, start again with fork

sigset_t WaitedSignals() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGCHLD);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGHUP);
  return set;
}

// Execs the command; if that fails, reports errno through `report_fd` and exits as a shell
// would (127: not found, 126: not runnable). Async-signal-safe, as the children below must be.
[[noreturn]] void ExecOrReport(char *const *argv, int report_fd) {
  execvp(argv[0], argv);
  const int err = errno;
  char message[1 + sizeof err];
  message[0] = kExecFailed;
  memcpy(message + 1, &err, sizeof err);
  if (write(report_fd, message, sizeof message) < 0) _exit(125);
  _exit(err == ENOENT ? 127 : 126);
}

// Only async-signal-safe calls between fork and exec.
[[noreturn]] void RunChild(char *const *argv, int report_fd) {
  if (g_blocked) sigprocmask(SIG_SETMASK, &g_original_mask, nullptr);
  const char mode = ptrace(PTRACE_TRACEME, 0, nullptr, nullptr) == 0 ? kTraced : kSelfStop;
  if (write(report_fd, &mode, 1) != 1) _exit(125);
  if (mode == kSelfStop) raise(SIGSTOP);
  ExecOrReport(argv, report_fd);
}

// The vfork child: it shares pmcount's memory and pmcount waits until it execs or exits, so it
// cannot stop itself before exec (that would wait for pmcount forever). If tracing is refused
// it says so and exits, and Start forks a child that can (RunChild).
[[noreturn]] void RunVforkChild(char *const *argv, int report_fd) {
  if (g_blocked) sigprocmask(SIG_SETMASK, &g_original_mask, nullptr);
  const char mode = ptrace(PTRACE_TRACEME, 0, nullptr, nullptr) == 0 ? kTraced : kRefused;
  if (write(report_fd, &mode, 1) != 1 || mode == kRefused) _exit(125);
  ExecOrReport(argv, report_fd);
}

// The held child: waits for the gate's byte, then execs. EOF on the gate (the tracer gave up)
// ends it without running anything. Async-signal-safe, as RunChild.
[[noreturn]] void RunHeldChild(char *const *argv, int gate_fd, int report_fd) {
  if (g_blocked) sigprocmask(SIG_SETMASK, &g_original_mask, nullptr);
  char go;
  ssize_t n;
  do {
    n = read(gate_fd, &go, 1);
  } while (n < 0 && errno == EINTR);
  if (n != 1) _exit(125);
  ExecOrReport(argv, report_fd);
}

// Forks (or vforks) the child, which runs RunVforkChild or RunChild and never returns here.
// A function of its own so that nothing of Start's lives across vfork's second return.
__attribute__((noinline)) pid_t StartChild(bool use_vfork, char *const *argv, const int report[2]) {
  const pid_t pid = use_vfork ? vfork() : fork();
  if (pid == 0) {
    if (use_vfork) RunVforkChild(argv, report[1]);
    close(report[0]);
    RunChild(argv, report[1]);
  }
  return pid;
}

ssize_t ReadFully(int fd, void *buffer, size_t size) {
  size_t done = 0;
  while (done < size) {
    const ssize_t n = read(fd, static_cast<char *>(buffer) + done, size - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    done += static_cast<size_t>(n);
  }
  return static_cast<ssize_t>(done);
}

pid_t WaitFor(pid_t pid, int *status, int flags, struct rusage *usage) {
  pid_t got;
  do {
    got = wait4(pid, status, flags, usage);
  } while (got < 0 && errno == EINTR);
  return got;
}

}  // namespace

void BlockWaitedSignals() {
  const sigset_t set = WaitedSignals();
  sigprocmask(SIG_BLOCK, &set, &g_original_mask);
  g_blocked = true;
}

Command::~Command() {
  if (gate_fd_ >= 0) close(gate_fd_);  // a child still held ends without running anything
  if (report_fd_ >= 0) close(report_fd_);
  if (held_ && pid_ > 0 && !exited_) {
    kill(pid_, SIGKILL);
    int status = 0;
    WaitFor(pid_, &status, 0, nullptr);
  }
}

int Command::StartHeld(const std::vector<std::string> &argv) {
  std::vector<char *> args;
  for (const std::string &arg : argv) args.push_back(const_cast<char *>(arg.c_str()));
  args.push_back(nullptr);
  int gate[2], report[2];
  if (pipe2(gate, O_CLOEXEC) != 0) {
    exec_errno_ = errno;
    return -1;
  }
  if (pipe2(report, O_CLOEXEC) != 0) {
    exec_errno_ = errno;
    close(gate[0]);
    close(gate[1]);
    return -1;
  }
  pid_ = fork();
  if (pid_ == 0) {
    close(gate[1]);
    close(report[0]);
    RunHeldChild(args.data(), gate[0], report[1]);
  }
  if (pid_ < 0) exec_errno_ = errno;
  close(gate[0]);
  close(report[1]);
  if (pid_ < 0) {
    close(gate[1]);
    close(report[0]);
    return -1;
  }
  held_ = true;
  gate_fd_ = gate[1];
  report_fd_ = report[0];
  return 0;
}

int Command::Release() {
  if (gate_fd_ < 0) return exited_ ? -1 : 0;
  const char go = 'g';
  const bool sent = write(gate_fd_, &go, 1) == 1;
  close(gate_fd_);
  gate_fd_ = -1;
  char message[1 + sizeof(int)] = {};
  const bool failed = !sent || (ReadFully(report_fd_, message, sizeof message) == sizeof message &&
                                message[0] == kExecFailed);
  close(report_fd_);
  report_fd_ = -1;
  if (!failed) return 0;
  if (sent) {
    memcpy(&exec_errno_, message + 1, sizeof exec_errno_);
  } else {
    exec_errno_ = ECHILD;  // the child died before it could be let go
  }
  int status = 0;
  WaitFor(pid_, &status, 0, &usage_);
  exited_ = true;
  wait_status_ = status;
  return -1;
}

int Command::Start(const std::vector<std::string> &argv, const std::function<int(pid_t)> &arm) {
  std::vector<char *> args;
  for (const std::string &arg : argv) args.push_back(const_cast<char *>(arg.c_str()));
  args.push_back(nullptr);
  int report[2];
  char mode = 0;
  // vfork first: fork would copy pmcount's page tables only for exec to drop them (a tenth of
  // `pmcount -- true`'s CPU time). fork only when tracing is refused (see RunVforkChild).
  for (int attempt = 0; attempt < 2; ++attempt) {
    if (pipe2(report, O_CLOEXEC) != 0) return -1;
    pid_ = StartChild(attempt == 0, args.data(), report);
    if (pid_ < 0) {
      exec_errno_ = errno;
      close(report[0]);
      close(report[1]);
      return -1;
    }
    close(report[1]);
    if (ReadFully(report[0], &mode, 1) != 1) mode = 0;  // the child died before reporting
    if (mode != kRefused) break;
    int status = 0;
    WaitFor(pid_, &status, 0, nullptr);  // it exited without running anything
    close(report[0]);
  }

  // Wait for the stop: after exec when traced, before it when the child stopped itself.
  int status = 0;
  while (true) {
    if (WaitFor(pid_, &status, WUNTRACED, &usage_) < 0) break;
    if (!WIFSTOPPED(status)) break;  // exited: exec failed (or was killed)
    const int sig = WSTOPSIG(status);
    if ((mode == kTraced && sig == SIGTRAP) || (mode == kSelfStop && sig == SIGSTOP)) break;
    // A signal reached the child before its exec: deliver it as if nobody were tracing.
    if (mode == kTraced)
      ptrace(PTRACE_CONT, pid_, nullptr, reinterpret_cast<void *>(static_cast<long>(sig)));
  }
  if (!WIFSTOPPED(status)) {
    exited_ = true;
    wait_status_ = status;
    char message[1 + sizeof(int)] = {};
    if (ReadFully(report[0], message, sizeof message) == sizeof message &&
        message[0] == kExecFailed) {
      memcpy(&exec_errno_, message + 1, sizeof exec_errno_);
    } else {
      exec_errno_ = ECHILD;
    }
    close(report[0]);
    return -1;
  }

  const int rc = arm(pid_);
  if (rc != 0) {
    kill(pid_, SIGKILL);
    if (mode == kTraced) ptrace(PTRACE_DETACH, pid_, nullptr, nullptr);
    WaitFor(pid_, &status, 0, &usage_);
    exited_ = true;
    wait_status_ = status;
    close(report[0]);
    return rc;
  }
  if (mode == kTraced) {
    ptrace(PTRACE_DETACH, pid_, nullptr, nullptr);  // signal 0: the exec's SIGTRAP is dropped
  } else {
    kill(pid_, SIGCONT);
    // Stopped before exec: learn now whether the exec works (EOF = it did).
    char message[1 + sizeof(int)] = {};
    if (ReadFully(report[0], message, sizeof message) == sizeof message &&
        message[0] == kExecFailed) {
      memcpy(&exec_errno_, message + 1, sizeof exec_errno_);
      WaitFor(pid_, &status, 0, &usage_);
      exited_ = true;
      wait_status_ = status;
      close(report[0]);
      return -1;
    }
  }
  close(report[0]);
  return 0;
}

bool Command::Reap() {
  if (exited_) return true;
  int status = 0;
  if (WaitFor(pid_, &status, WNOHANG, &usage_) == pid_ &&
      (WIFEXITED(status) || WIFSIGNALED(status))) {
    exited_ = true;
    wait_status_ = status;
  }
  return exited_;
}

void Command::Forward(const siginfo_t &info) {
  if (exited_) return;
  // ^C from the terminal goes to the whole foreground process group: the command has it
  // already, and a second SIGINT could make a shell or an interpreter act twice.
  if (info.si_code == SI_KERNEL && getpgid(pid_) == getpgrp()) return;
  kill(pid_, info.si_signo);
}

void Command::Terminate() {
  if (!exited_) kill(pid_, SIGTERM);
}

int Command::exit_status() const {
  if (WIFSIGNALED(wait_status_)) return 128 + WTERMSIG(wait_status_);
  if (WIFEXITED(wait_status_)) return WEXITSTATUS(wait_status_);
  return 125;
}

std::string Command::how_it_ended() const {
  if (WIFSIGNALED(wait_status_)) {
    const char *name = sigabbrev_np(WTERMSIG(wait_status_));
    return std::string("killed by ") +
           (name ? std::string("SIG") + name : "signal " + std::to_string(WTERMSIG(wait_status_)));
  }
  return "exited with status " + std::to_string(exit_status());
}

int WaitLoop(Command *command, uint64_t deadline_ns, uint64_t interval_ns,
             const std::function<bool()> &tick, const std::function<bool()> &alive) {
  constexpr uint64_t kAlivePollNs = 100000000;  // perf stat -p notices an exit as late
  const sigset_t set = WaitedSignals();
  uint64_t next_tick = interval_ns ? NowNs() + interval_ns : 0;
  uint64_t next_poll = alive ? NowNs() + kAlivePollNs : 0;
  bool terminated = false;
  int first_signal = 0;
  while (true) {
    if (command && command->Reap()) return first_signal;
    const uint64_t now = NowNs();
    if (next_tick && now >= next_tick) {
      // Keep the ticks on their grid even if one ran late.
      while (next_tick <= now) next_tick += interval_ns;
      if (!tick()) {
        if (!command) return 0;
        if (!terminated) command->Terminate();
        terminated = true;
        next_tick = 0;
      }
      continue;
    }
    if (!command && deadline_ns && now >= deadline_ns) return 0;
    if (next_poll && now >= next_poll) {
      if (!command && !alive()) return 0;
      next_poll = now + kAlivePollNs;
    }
    uint64_t wake = next_tick;
    if (!command && deadline_ns && (!wake || deadline_ns < wake)) wake = deadline_ns;
    if (next_poll && (!wake || next_poll < wake)) wake = next_poll;
    siginfo_t info;
    int sig;
    if (wake) {
      const uint64_t wait = wake - now;
      struct timespec timeout = {static_cast<time_t>(wait / 1000000000u),
                                 static_cast<long>(wait % 1000000000u)};
      sig = sigtimedwait(&set, &info, &timeout);
    } else {
      sig = sigwaitinfo(&set, &info);
    }
    if (sig < 0 || sig == SIGCHLD) continue;  // timeout, EINTR, or a child changed state
    if (!command) return sig;
    if (!first_signal) first_signal = sig;
    command->Forward(info);
  }
}

int Command::ExplainExecFailure(const char *tool, const std::string &program) const {
  fprintf(stderr, "%s: cannot run '%s': %s\n", tool, program.c_str(),
          exec_errno_ == ENOENT ? "command not found" : strerror(exec_errno_));
  return exec_errno_ == ENOENT ? 127 : 126;
}

}  // namespace tools
