/* SPDX-License-Identifier: MIT */
// The process's one fork handler, as a service the nouns above register with: each noun that
// holds locks or descriptors across a fork joins with a rank (its place in the lock order) and
// three hooks. Before fork, the hooks' prepare runs in rank order, lowest first (take your
// locks); after it, parent or child runs in the reverse order (release them; in the child, let
// go of what was the parent's). The service knows no noun: the ranks are the callers'.
//
// The process's pthread_atfork handler is installed when the library loads, so that it comes
// before any front end's: a front end's own prepare then runs first (glibc runs them in the
// reverse order), and its child handler after the engine's.
//
// The child runs in a process that has one thread and whatever locks the others held at the
// fork, so the service allocates nothing and locks nothing there that prepare did not take.
#pragma once

namespace pmapi {

// Ranks run from 0 to kForkRanks - 1.
constexpr int kForkRanks = 16;

class ForkHook {
 public:
  using Fn = void (*)(void *self);

  // `self` is passed to each hook; any hook may be null. Not yet joined.
  ForkHook(int rank, void *self, Fn prepare, Fn parent, Fn child);
  // Leaves the service if it joined.
  ~ForkHook();
  ForkHook(const ForkHook &) = delete;
  ForkHook &operator=(const ForkHook &) = delete;

  // Joins and leaves. Never allocates, never fails. Not from inside a hook of the same rank, nor
  // while holding a lock that a prepare of this rank or above takes: joining waits for a fork
  // under way. A child hook may make hooks of higher ranks leave (their child hooks have run),
  // not those of its own.
  void Join();
  void Leave();
  bool joined() const { return joined_; }

 private:
  friend class ForkService;
  int rank_;
  void *self_;
  Fn prepare_;
  Fn parent_;
  Fn child_;
  bool joined_ = false;
  ForkHook *prev_ = nullptr;  // the service's list of its rank
  ForkHook *next_ = nullptr;
};

}  // namespace pmapi
