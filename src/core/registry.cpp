// SPDX-License-Identifier: MIT
#include "core/registry.h"

#include <pthread.h>

#include <map>
#include <set>
#include <utility>

#include "core/fork_order.h"

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
  bool system_active = false;
};

Registry &Registry::Get() {
  // Never destroyed: threads may still exit (and reap their contexts) while
  // static destructors run.
  static Registry *registry = new Registry;
  return *registry;
}

Registry::Registry()
    : state_(new State),
      calls_hook_(kForkRankRegistryCalls, this, &LockCalls, &UnlockCalls, &UnlockCalls),
      contexts_hook_(kForkRankContexts, this, &LockContexts, &UnlockContexts,
                     &DropContextsInChild) {
  calls_hook_.Join();
  contexts_hook_.Join();
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

// Fork: the child must not inherit counting contexts (AIX gives a child none). The locks are
// taken before fork so that the child does not inherit one held by a thread that no longer
// exists there.
void Registry::LockCalls(void *self) {
  auto *registry = static_cast<Registry *>(self);
  registry->system_calls_.lock();
  registry->third_party_calls_.lock();
}

void Registry::UnlockCalls(void *self) {
  auto *registry = static_cast<Registry *>(self);
  registry->third_party_calls_.unlock();
  registry->system_calls_.unlock();
}

void Registry::LockContexts(void *self) { static_cast<Registry *>(self)->state_->mutex.lock(); }

void Registry::UnlockContexts(void *self) { static_cast<Registry *>(self)->state_->mutex.unlock(); }

void Registry::DropContextsInChild(void *self) {
  Registry &registry = *static_cast<Registry *>(self);
  State &state = *registry.state_;
  // The child's descriptors are copies of the parent's: close them directly
  // (not through a test's kernel double, which belongs to the parent's view).
  auto close_all = [](Context *context) { context->ReleaseInChild(); };
  // Moved out, which allocates nothing, and destroyed once the lock is free: a member's
  // context tells its group (whose hook has run), and the last one destroys the group.
  std::set<Context *> thread_contexts = std::move(state.thread_contexts);
  std::map<std::pair<pid_t, pid_t>, std::unique_ptr<Context>> targets = std::move(state.targets);
  std::unique_ptr<Context> system = std::move(registry.system_);
  state.thread_contexts.clear();
  state.targets.clear();
  state.system_active = false;
  t_my_context = nullptr;
  for (Context *context : thread_contexts) close_all(context);
  for (auto &entry : targets) close_all(entry.second.get());
  if (system) close_all(system.get());
  state.mutex.unlock();
  for (Context *context : thread_contexts) delete context;
}

}  // namespace pmapi
