/* SPDX-License-Identifier: MIT */
// Who owns which context in this process, and the rules between them:
// the one system-wide context, the calling threads' own contexts, and the
// third-party contexts on other threads. A process has either the
// system-wide context or thread contexts, never both. After fork the child
// holds none of the parent's contexts nor of its sampling sessions.
#pragma once

#include <sys/types.h>

#include <memory>
#include <mutex>

#include "base/status.h"
#include "core/context.h"

namespace pmapi {

class SamplingSession;

// The calling thread's own context: the hot path reads it without a lock.
extern thread_local Context *t_my_context;

class Registry {
 public:
  static Registry &Get();

  // Held for the whole of every system-wide call, so that calls from several
  // threads are serialized.
  std::mutex &system_calls() { return system_calls_; }
  // Held for the whole of every third-party call: a context cannot be deleted
  // under a concurrent read.
  std::mutex &third_party_calls() { return third_party_calls_; }
  // Held for the whole of every call of a sampling front end (compat/fuchsia): a fork waits for
  // it, so a child never inherits it held.
  std::mutex &sampling_calls() { return sampling_calls_; }

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

  // Third-party contexts, keyed by (pid, tid) (caller holds third_party_calls()).
  Context *FindTarget(pid_t pid, pid_t tid) const;
  Status AdoptTarget(pid_t pid, pid_t tid, std::unique_ptr<Context> context);
  void DropTarget(pid_t pid, pid_t tid);
  std::unique_ptr<Context> TakeTarget(pid_t pid, pid_t tid);

  // Every live counting group, so that fork can lock and release them.
  void AddGroup(CountingGroup *group);
  void RemoveGroup(CountingGroup *group);
  // Every live sampling session, so that fork can hold their drains and the child forget them.
  void AddSamplingSession(SamplingSession *session);
  void RemoveSamplingSession(SamplingSession *session);
  // Run in a child of fork after the parent's sessions are let go of and every lock released
  // (see SamplingSession::AtForkInChild); the same handler twice is kept once.
  void AddForkChildHandler(void (*handler)());

 private:
  Registry();
  struct State;
  static void BeforeFork();
  static void AfterForkInParent();
  static void AfterForkInChild();

  std::mutex system_calls_;
  std::mutex third_party_calls_;
  std::mutex sampling_calls_;
  std::unique_ptr<Context> system_;
  State *state_;
};

}  // namespace pmapi
