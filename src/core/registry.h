/* SPDX-License-Identifier: MIT */
// Who owns which context in this process, and the rules between them:
// the one system-wide context, the calling threads' own contexts, and the
// third-party contexts on other threads. A process has either the
// system-wide context or thread contexts, never both. After fork the child
// holds none of the parent's contexts: the registry joins the fork service
// (base/fork_service.h) like every other noun, and names none of them.
#pragma once

#include <sys/types.h>

#include <memory>
#include <mutex>

#include "base/fork_service.h"
#include "base/status.h"
#include "core/context.h"

namespace pmapi {

// The calling thread's own context: the hot path reads it without a lock.
extern thread_local Context *t_my_context;

class Registry {
 public:
  static Registry &Get();

  // Held for the whole of every system-wide call, so that calls from several
  // threads are serialized.
  std::mutex &system_calls() { return system_calls_; }
  // Runs op(context) for the whole of a third-party call, with the context of (pid, tid) or
  // null: calls are serialized, so a context cannot be deleted under a concurrent read.
  template <typename Op>
  auto WithTarget(pid_t pid, pid_t tid, Op op) {
    std::lock_guard<std::mutex> lock(third_party_calls_);
    return op(FindTarget(pid, tid));
  }

  // System-wide context (caller holds system_calls()).
  Context *system_context() const { return system_.get(); }
  Status CheckSystemAllowed() const;
  Status AdoptSystem(std::unique_ptr<Context> context);
  void DropSystem();

  // The calling thread's own context.
  Status CheckThreadAllowed() const;
  // A process-level counting group takes in every thread, so none may have a
  // context of its own already (§1.2).
  Status CheckNoThreadContexts() const;
  Status AdoptMyThread(std::unique_ptr<Context> context);
  void DropMyThread();
  std::unique_ptr<Context> TakeMyThread();

  // Third-party contexts, keyed by (pid, tid) (inside WithTarget).
  Context *FindTarget(pid_t pid, pid_t tid) const;
  Status AdoptTarget(pid_t pid, pid_t tid, std::unique_ptr<Context> context);
  void DropTarget(pid_t pid, pid_t tid);
  std::unique_ptr<Context> TakeTarget(pid_t pid, pid_t tid);

 private:
  Registry();
  struct State;
  // The fork hooks: the call locks (core/fork_order.h's kForkRankRegistryCalls), then the
  // contexts (kForkRankContexts), which the child closes and destroys.
  static void LockCalls(void *self);
  static void UnlockCalls(void *self);
  static void LockContexts(void *self);
  static void UnlockContexts(void *self);
  static void DropContextsInChild(void *self);

  std::mutex system_calls_;
  std::mutex third_party_calls_;
  std::unique_ptr<Context> system_;
  State *state_;
  ForkHook calls_hook_;
  ForkHook contexts_hook_;
};

}  // namespace pmapi
