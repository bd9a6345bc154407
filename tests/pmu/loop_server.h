/* SPDX-License-Identifier: MIT */
// A third party for the families that count another process (_thread, _group, _pgroup): a
// forked process that runs work(n) whenever the test asks and answers once it has. Forked from
// the caller, it runs under the caller's scheduling (InOneOrder, guest_support.h).
#pragma once

#include <stdint.h>
#include <sys/types.h>

namespace pmu_guest {

class LoopServer {
 public:
  // Forks the server; ok() says whether it runs.
  explicit LoopServer(void (*work)(uint64_t));
  // Tells the server to end and waits for it (kills it when it no longer listens).
  ~LoopServer();
  LoopServer(const LoopServer &) = delete;
  LoopServer &operator=(const LoopServer &) = delete;

  bool ok() const { return pid_ > 0; }
  pid_t pid() const { return pid_; }
  // work(n) in the server, returned from once it has run; a silent server fails the test.
  void Run(uint64_t n) const;

 private:
  pid_t pid_ = -1;
  int request_ = -1, done_ = -1;  // the caller's ends of the two pipes
};

}  // namespace pmu_guest
