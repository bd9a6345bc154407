// SPDX-License-Identifier: MIT
#include "core/registry.h"

#include <pthread.h>
#include <unistd.h>

#include <map>
#include <set>
#include <utility>
#include <vector>

#include "base/engine_counts.h"
#include "core/counting_group.h"
#include "core/fork_counter.h"
#include "core/sampling_session.h"

namespace pmapi {

thread_local Context *t_my_context = nullptr;

namespace {

// Deletes the calling thread's context when the thread exits, so that a
// thread that forgets pm_delete_program_mythread leaks no descriptor. A
// pthread key rather than a thread_local object with a destructor: glibc
// aborts the process when it cannot allocate the record of such a destructor,
// where pthread_setspecific reports ENOMEM.
void ReapMyContext(void *) {
  if (t_my_context) Registry::Get().DropMyThread();
}

// The key, or -1 when the process ran out of keys.
long ReaperKey() {
  static const long key = [] {
    pthread_key_t created;
    return pthread_key_create(&created, &ReapMyContext) == 0 ? static_cast<long>(created) : -1L;
  }();
  return key;
}

// Arms the calling thread's reaper; false when that cannot be done.
bool ArmReaper() {
  static char armed;  // any non-null value makes the key's destructor run
  const long key = ReaperKey();
  return key >= 0 && pthread_setspecific(static_cast<pthread_key_t>(key), &armed) == 0;
}

}  // namespace

struct Registry::State {
  std::mutex mutex;                     // guards everything below; held only briefly
  std::set<Context *> thread_contexts;  // every thread's own context, owned
  std::map<std::pair<pid_t, pid_t>, std::unique_ptr<Context>> targets;
  std::set<CountingGroup *> groups;               // not owned: their members own them
  std::set<SamplingSession *> sampling_sessions;  // not owned: their front ends own them
  // The front ends' own child handlers: a fixed array, read in the child without allocating.
  void (*child_handlers[8])() = {};
  size_t child_handler_count = 0;
  bool system_active = false;
};

Registry &Registry::Get() {
  // Never destroyed: threads may still exit (and reap their contexts) while
  // static destructors run.
  static Registry *registry = new Registry;
  return *registry;
}

Registry::Registry() : state_(new State) {
  pthread_atfork(&Registry::BeforeFork, &Registry::AfterForkInParent, &Registry::AfterForkInChild);
  CountEngineEvent(EngineEvent::kForkHandlerRegistered);
}

Status Registry::CheckSystemAllowed() const {
  std::lock_guard<std::mutex> lock(state_->mutex);
  if (!state_->thread_contexts.empty() || !state_->targets.empty()) {
    return Status(Pmapi_SysThreadConflict,
                  std::to_string(state_->thread_contexts.size() + state_->targets.size()) +
                      " thread context(s) exist in this process; delete them before "
                      "programming system-wide counting");
  }
  return Status::Ok();
}

Status Registry::CheckThreadAllowed() const {
  std::lock_guard<std::mutex> lock(state_->mutex);
  if (state_->system_active) {
    return Status(Pmapi_SysThreadConflict,
                  "the system-wide context exists in this process; pm_delete_program it before "
                  "programming threads");
  }
  return Status::Ok();
}

Status Registry::CheckNoThreadContexts() const {
  std::lock_guard<std::mutex> lock(state_->mutex);
  const size_t existing = state_->thread_contexts.size() + state_->targets.size();
  if (existing != 0) {
    return Status(Pmapi_ProgExists, std::to_string(existing) +
                                        " thread context(s) exist in this process; a "
                                        "process-level group needs every thread free of one");
  }
  return Status::Ok();
}

Status Registry::AdoptSystem(std::unique_ptr<Context> context) {
  Status status = CheckSystemAllowed();
  if (!status.ok()) return status;
  std::lock_guard<std::mutex> lock(state_->mutex);
  system_ = std::move(context);
  state_->system_active = true;
  return Status::Ok();
}

void Registry::DropSystem() {
  std::unique_ptr<Context> doomed;
  {
    std::lock_guard<std::mutex> lock(state_->mutex);
    doomed = std::move(system_);
    state_->system_active = false;
  }
}

Status Registry::AdoptMyThread(std::unique_ptr<Context> context) {
  std::lock_guard<std::mutex> lock(state_->mutex);
  if (state_->system_active) {
    return Status(Pmapi_SysThreadConflict,
                  "the system-wide context was programmed meanwhile; delete it first");
  }
  if (!ArmReaper()) {
    return Status(Pmapi_Malloc_Err,
                  "out of memory: cannot arrange for the context's release at thread exit");
  }
  // Inserted first: if that runs out of memory the context is not half-adopted.
  state_->thread_contexts.insert(context.get());
  t_my_context = context.release();
  return Status::Ok();
}

void Registry::DropMyThread() { TakeMyThread(); }

std::unique_ptr<Context> Registry::TakeMyThread() {
  std::unique_ptr<Context> taken(t_my_context);
  if (!taken) return taken;
  t_my_context = nullptr;
  std::lock_guard<std::mutex> lock(state_->mutex);
  state_->thread_contexts.erase(taken.get());
  return taken;
}

Context *Registry::FindTarget(pid_t pid, pid_t tid) const {
  std::lock_guard<std::mutex> lock(state_->mutex);
  auto it = state_->targets.find({pid, tid});
  return it == state_->targets.end() ? nullptr : it->second.get();
}

Status Registry::AdoptTarget(pid_t pid, pid_t tid, std::unique_ptr<Context> context) {
  std::lock_guard<std::mutex> lock(state_->mutex);
  if (state_->system_active) {
    return Status(Pmapi_SysThreadConflict,
                  "the system-wide context was programmed meanwhile; delete it first");
  }
  state_->targets[{pid, tid}] = std::move(context);
  return Status::Ok();
}

void Registry::DropTarget(pid_t pid, pid_t tid) { TakeTarget(pid, tid); }

std::unique_ptr<Context> Registry::TakeTarget(pid_t pid, pid_t tid) {
  std::unique_ptr<Context> taken;
  std::lock_guard<std::mutex> lock(state_->mutex);
  auto it = state_->targets.find({pid, tid});
  if (it == state_->targets.end()) return taken;
  taken = std::move(it->second);
  state_->targets.erase(it);
  return taken;
}

void Registry::AddGroup(CountingGroup *group) {
  std::lock_guard<std::mutex> lock(state_->mutex);
  state_->groups.insert(group);
}

void Registry::RemoveGroup(CountingGroup *group) {
  std::lock_guard<std::mutex> lock(state_->mutex);
  state_->groups.erase(group);
}

void Registry::AddSamplingSession(SamplingSession *session) {
  std::lock_guard<std::mutex> lock(state_->mutex);
  state_->sampling_sessions.insert(session);
}

void Registry::RemoveSamplingSession(SamplingSession *session) {
  std::lock_guard<std::mutex> lock(state_->mutex);
  state_->sampling_sessions.erase(session);
}

void Registry::AddForkChildHandler(void (*handler)()) {
  std::lock_guard<std::mutex> lock(state_->mutex);
  for (size_t i = 0; i < state_->child_handler_count; ++i) {
    if (state_->child_handlers[i] == handler) return;
  }
  if (state_->child_handler_count < sizeof state_->child_handlers / sizeof handler) {
    state_->child_handlers[state_->child_handler_count++] = handler;
  }
}

// Fork: the child must not inherit counting contexts (AIX gives a child
// none) nor sampling sessions (Fuchsia's handles are not inherited). The locks are taken before
// fork so that the child does not inherit one held by a thread that no longer exists there.
void Registry::BeforeFork() {
  CountEngineEvent(EngineEvent::kForkPrepared);
  Registry &registry = Get();
  registry.system_calls_.lock();
  registry.third_party_calls_.lock();
  registry.sampling_calls_.lock();
  registry.state_->mutex.lock();
  for (CountingGroup *group : registry.state_->groups) group->mutex().lock();
  // No drain is half-done at the fork.
  for (SamplingSession *session : registry.state_->sampling_sessions) session->drain_mutex().lock();
}

void Registry::AfterForkInParent() {
  Registry &registry = Get();
  for (SamplingSession *session : registry.state_->sampling_sessions)
    session->drain_mutex().unlock();
  for (CountingGroup *group : registry.state_->groups) group->mutex().unlock();
  registry.state_->mutex.unlock();
  registry.sampling_calls_.unlock();
  registry.third_party_calls_.unlock();
  registry.system_calls_.unlock();
}

void Registry::AfterForkInChild() {
  Registry &registry = Get();
  State &state = *registry.state_;
  // The child's descriptors are copies of the parent's: close them directly
  // (not through a test's kernel double, which belongs to the parent's view).
  auto close_all = [](Context *context) {
    for (CounterGroup &group : context->groups()) {
      for (int fd : group.Release()) close(fd);
    }
  };
  for (CountingGroup *group : state.groups) group->ReleaseInChild();
  DropForkCounterAnchorInChild();
  std::vector<std::unique_ptr<Context>> doomed;
  for (Context *context : state.thread_contexts) {
    close_all(context);
    doomed.emplace_back(context);
  }
  state.thread_contexts.clear();
  for (auto &entry : state.targets) {
    close_all(entry.second.get());
    doomed.push_back(std::move(entry.second));
  }
  state.targets.clear();
  if (registry.system_) close_all(registry.system_.get());
  registry.system_.reset();
  state.system_active = false;
  t_my_context = nullptr;
  // The front ends keep their session objects (and answer for them as the parent's): only what
  // they hold of the parent's is let go here.
  for (SamplingSession *session : state.sampling_sessions) {
    session->ForgetInChild();
    session->drain_mutex().unlock();
  }
  for (CountingGroup *group : state.groups) group->mutex().unlock();
  state.mutex.unlock();
  registry.sampling_calls_.unlock();
  registry.third_party_calls_.unlock();
  registry.system_calls_.unlock();
  // Destroyed with every lock free: a member's context tells its group, and
  // the last one destroys the group, which leaves the registry.
  doomed.clear();
  // The front ends' handlers may destroy their sessions, which leave the registry.
  for (size_t i = 0; i < state.child_handler_count; ++i) state.child_handlers[i]();
}

}  // namespace pmapi
