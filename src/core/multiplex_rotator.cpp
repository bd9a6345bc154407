// SPDX-License-Identifier: MIT
#include "core/multiplex_rotator.h"

#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <new>
#include <set>
#include <thread>

#include "base/fork_service.h"
#include "core/fork_order.h"
#include "core/multiplexer.h"
#include "core/registry.h"

namespace pmapi {
namespace {

class Rotator {
 public:
  static Rotator &Get() {
    // Never destroyed: its thread runs until the process exits.
    static Rotator *rotator = new Rotator;
    return *rotator;
  }

  bool Add(Multiplexer *mx) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!running_ && !StartThread()) return false;
    members_.insert(mx);
    wake_.notify_one();
    return true;
  }

  void Remove(Multiplexer *mx) {
    // In a forked child the rotator's own hook has reset it before the parent's contexts are
    // destroyed (core/fork_order.h); still, the child has no rotator to stop.
    if (getpid() != owner_) return;
    // Switch() runs under mutex_: once it is ours, no switch of `mx` is under way.
    std::lock_guard<std::mutex> lock(mutex_);
    members_.erase(mx);
  }

  void Wake() {
    std::lock_guard<std::mutex> lock(mutex_);
    wake_.notify_one();
  }

 private:
  Rotator() : owner_(getpid()) { fork_hook_.Join(); }

  bool StartThread() {
    // The rotator must not inherit the creating thread's PM context (pthread_create is
    // interposed, see thread_inherit.cpp): it would count itself, or join a counting group.
    Context *saved = t_my_context;
    t_my_context = nullptr;
    bool started = true;
    try {
      std::thread(&Rotator::Run, this).detach();
    } catch (const std::system_error &) {
      started = false;
    }
    t_my_context = saved;
    running_ = started;
    return started;
  }

  void Run() {
    // Client signal handlers (profilers' SIGPROF, SIGALRM) belong to the client's threads.
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, nullptr);
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      const uint64_t now = MonotonicNanosForRotation();
      uint64_t next = UINT64_MAX;
      for (Multiplexer *mx : members_) {
        // A failure stays visible at the next read (that set stops counting).
        mx->SwitchDue(now);
        const uint64_t due = mx->NextSwitch();
        if (due < next) next = due;
      }
      if (next == UINT64_MAX) {
        wake_.wait(lock);
      } else {
        wake_.wait_until(lock, std::chrono::steady_clock::time_point(
                                   std::chrono::nanoseconds(static_cast<int64_t>(next))));
      }
    }
  }

  static uint64_t MonotonicNanosForRotation() {
    // steady_clock is CLOCK_MONOTONIC on Linux, the clock NextSwitch() is in.
    return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                     std::chrono::steady_clock::now().time_since_epoch())
                                     .count());
  }

  // The child of fork has no rotator thread, and the lock may have been held by it: start
  // afresh (the child's contexts are dropped by the registry's own fork hook, after this one).
  static void AfterForkInChild(void *self) {
    Rotator &rotator = *static_cast<Rotator *>(self);
    new (&rotator.mutex_) std::mutex;
    new (&rotator.wake_) std::condition_variable;
    new (&rotator.members_) std::set<Multiplexer *>;  // the parent's nodes are leaked
    rotator.running_ = false;
    rotator.owner_ = getpid();
  }

  std::mutex mutex_;
  std::condition_variable wake_;
  std::set<Multiplexer *> members_;
  bool running_ = false;
  pid_t owner_;  // the process whose rotator this is
  ForkHook fork_hook_{kForkRankProcessState, this, nullptr, nullptr, &Rotator::AfterForkInChild};
};

}  // namespace

bool AddToRotation(Multiplexer *mx) { return Rotator::Get().Add(mx); }
void RemoveFromRotation(Multiplexer *mx) { Rotator::Get().Remove(mx); }
void WakeRotator() { Rotator::Get().Wake(); }

}  // namespace pmapi
