// SPDX-License-Identifier: MIT
#include "loop_server.h"

#include <errno.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

namespace pmu_guest {
namespace {

// The server: work(n) for every n it reads, a byte back after each; 0 ends it.
[[noreturn]] void Serve(void (*work)(uint64_t), int requests, int done) {
  uint64_t n = 0;
  while (read(requests, &n, sizeof n) == static_cast<ssize_t>(sizeof n) && n != 0) {
    work(n);
    const char byte = 1;
    if (write(done, &byte, 1) != 1) break;
  }
  _exit(0);
}

}  // namespace

LoopServer::LoopServer(void (*work)(uint64_t)) {
  int requests[2], done[2];
  if (pipe(requests) != 0) {
    ADD_FAILURE() << "pipe: " << strerror(errno);
    return;
  }
  if (pipe(done) != 0) {
    ADD_FAILURE() << "pipe: " << strerror(errno);
    close(requests[0]);
    close(requests[1]);
    return;
  }
  pid_ = fork();
  if (pid_ == 0) Serve(work, requests[0], done[1]);
  close(requests[0]);
  close(done[1]);
  request_ = requests[1];
  done_ = done[0];
  if (pid_ < 0) ADD_FAILURE() << "fork: " << strerror(errno);
}

LoopServer::~LoopServer() {
  if (pid_ > 0) {
    const uint64_t stop = 0;
    if (write(request_, &stop, sizeof stop) < 0) kill(pid_, SIGKILL);
  }
  if (request_ >= 0) close(request_);
  if (done_ >= 0) close(done_);
  if (pid_ > 0) waitpid(pid_, nullptr, 0);
}

void LoopServer::Run(uint64_t n) const {
  char byte;
  if (write(request_, &n, sizeof n) != static_cast<ssize_t>(sizeof n) ||
      read(done_, &byte, 1) != 1) {
    ADD_FAILURE() << "the loop server (pid " << pid_ << ") stopped answering";
  }
}

}  // namespace pmu_guest
