// SPDX-License-Identifier: MIT
#include "base/fork_service.h"

#include <pthread.h>

#include <mutex>

#include "base/engine_counts.h"

namespace pmapi {

// One list per rank, each with its own lock: a noun may join or leave while holding the locks
// of lower ranks (a counting group dies under a call lock), which prepare takes before this
// rank's list, so the order is the same everywhere.
class ForkService {
 public:
  static ForkService &Get() {
    // Never destroyed: threads may still fork, join or leave while static destructors run.
    static ForkService *service = new ForkService;
    return *service;
  }

  void Join(ForkHook *hook) {
    Rank &rank = ranks_[hook->rank_];
    std::lock_guard<std::mutex> lock(rank.mutex);
    hook->prev_ = rank.tail;
    hook->next_ = nullptr;
    (rank.tail ? rank.tail->next_ : rank.head) = hook;
    rank.tail = hook;
  }

  void Leave(ForkHook *hook) {
    Rank &rank = ranks_[hook->rank_];
    std::lock_guard<std::mutex> lock(rank.mutex);
    Unlink(&rank, hook);
  }

 private:
  struct Rank {
    std::mutex mutex;  // guards the list; held from prepare to parent or child
    ForkHook *head = nullptr;
    ForkHook *tail = nullptr;
  };

  ForkService() {
    pthread_atfork(&ForkService::Prepare, &ForkService::Parent, &ForkService::Child);
    CountEngineEvent(EngineEvent::kForkHandlerRegistered);
  }

  static void Unlink(Rank *rank, ForkHook *hook) {
    (hook->prev_ ? hook->prev_->next_ : rank->head) = hook->next_;
    (hook->next_ ? hook->next_->prev_ : rank->tail) = hook->prev_;
    hook->prev_ = hook->next_ = nullptr;
  }

  static void Prepare() {
    CountEngineEvent(EngineEvent::kForkPrepared);
    for (Rank &rank : Get().ranks_) {
      rank.mutex.lock();
      for (ForkHook *hook = rank.head; hook; hook = hook->next_) {
        if (hook->prepare_) hook->prepare_(hook->self_);
      }
    }
  }

  // Each rank's hooks last to first, then its list released: a child hook may make hooks of
  // higher ranks leave (their lists are free by then), never one of its own rank.
  static void Release(ForkHook::Fn ForkHook::*which) {
    Rank *ranks = Get().ranks_;
    for (int r = kForkRanks - 1; r >= 0; --r) {
      for (ForkHook *hook = ranks[r].tail; hook;) {
        ForkHook *previous = hook->prev_;
        if (hook->*which) (hook->*which)(hook->self_);
        hook = previous;
      }
      ranks[r].mutex.unlock();
    }
  }

  static void Parent() { Release(&ForkHook::parent_); }
  static void Child() { Release(&ForkHook::child_); }

  Rank ranks_[kForkRanks];
};

namespace {

// Installed when the library loads, before any front end's own pthread_atfork handler: glibc
// runs prepare handlers last registered first, so a front end, which calls the engine while it
// holds its own lock (and may join a hook then), takes that lock before the engine's; and the
// engine's child handler runs before the front ends', which may call it again.
[[maybe_unused]] ForkService &g_installed_at_load = ForkService::Get();

}  // namespace

ForkHook::ForkHook(int rank, void *self, Fn prepare, Fn parent, Fn child)
    : rank_(rank < 0             ? 0
            : rank >= kForkRanks ? kForkRanks - 1
                                 : rank),
      self_(self),
      prepare_(prepare),
      parent_(parent),
      child_(child) {}

ForkHook::~ForkHook() { Leave(); }

void ForkHook::Join() {
  if (joined_) return;
  ForkService::Get().Join(this);
  joined_ = true;
}

void ForkHook::Leave() {
  if (!joined_) return;
  ForkService::Get().Leave(this);
  joined_ = false;
}

}  // namespace pmapi
