/* SPDX-License-Identifier: MIT */
// A counting group (AIX §1.4, §1.5): threads whose counts accumulate
// together, beside each member's own context.
//
// The group's totals come from the kernel: one perf group with `inherit` on
// each root thread (the creator, or every thread of the process for a
// process-level group) counts the root and every thread or process it starts
// afterwards, exec'd programs included, and keeps the counts of those that
// exit. What the kernel cannot know, the group keeps beside it:
//  - a member that resets its own data has that data subtracted;
//  - a member that deletes its own context leaves: its data so far is
//    subtracted, and its own counters stay open (as "departed") so that what
//    it does afterwards is subtracted too;
//  - a group reset moves the group's baselines; with more than one member the
//    data is then no longer the sum of the members' (consistent = 0);
//  - `members` counts every thread that ever belonged: the kernel counts
//    thread and process creation with the sched:sched_process_fork tracepoint
//    where it can be opened, otherwise the library counts the members it saw
//    join (threads started with pthread_create by a member).
//
// Locking: one mutex per group, never held while taking the registry's. Each group joins the
// fork service: its lock is held across a fork, and the child closes its copies.
#pragma once

#include <sys/types.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <set>
#include <vector>

#include "base/fork_service.h"
#include "base/status.h"
#include "core/context.h"
#include "pmapi.h"

namespace pmapi {

// What a group read reports beside the counts (pm_data_t's ginfo at the API edge).
struct GroupMembership {
  int members = 0;
  bool process_level = false;
  bool consistent = true;
};

class CountingGroup : public std::enable_shared_from_this<CountingGroup> {
 public:
  // Opens the group's counters on `roots` (inherit is forced on unless the
  // program says no_inherit). The roots that could be opened are the members
  // at the start (a listed thread may exit first). Counting starts if `start`.
  static Status Create(const Program &program, std::vector<GroupTarget> roots, bool start,
                       std::shared_ptr<CountingGroup> *out);
  ~CountingGroup();

  // Makes `member` (a fresh context with the group's program, not counting)
  // a member; its own state turns on if `own_counting`, and it counts while
  // the group does. A root's own context is already among the initial
  // members; a new thread's is not.
  enum class Joining { kRoot, kNewThread };
  Status Join(Context *member, bool own_counting, Joining joining);
  // Called by a member's context when it is destroyed: a member that dies
  // keeps its contribution.
  void Forget(Context *member);

  // Group operations. `caller` is the member issuing them (its own state
  // follows the group's, §1.4), or null.
  Status Start(Context *caller);
  Status Stop(Context *caller);
  // Resets the caller's and the group's data.
  Status Reset(Context *caller);
  // The group's counts into `values` and what pm_data_t's ginfo reports into `membership`
  // (either may be null only where said: `values` never).
  Status Read(CounterValues *values, GroupMembership *membership, CountTimes *times);
  // Closes the group's counters and stops every member; members' own
  // contexts are dropped by their threads (see revoked()).
  void Delete();

  // A member's own operations, which the group must see (§1.5).
  Status MemberStart(Context *member);
  Status MemberStop(Context *member);
  Status MemberReset(Context *member);
  // The member deletes its own context: its data leaves the group.
  void Depart(std::unique_ptr<Context> member);

  // True once the group was deleted: a member's context left behind must be
  // dropped by its own thread at its next call.
  bool revoked() const { return revoked_.load(std::memory_order_acquire); }
  bool counting() const;
  const Program &program() const { return program_; }
  // The group's inherited counters (null once deleted); hold mutex() while using them.
  const Context *roots() const { return roots_.get(); }

  std::mutex &mutex() { return mutex_; }

 private:
  CountingGroup();
  static void LockForFork(void *self);
  static void UnlockAfterFork(void *self);
  static void ReleaseAfterFork(void *self);
  // After fork, in the child: closes the descriptors directly (they are
  // copies of the parent's) so that destruction touches nothing.
  void ReleaseInChild();
  Status ResetLocked();
  int MembersLocked(const GroupReading &roots) const;

  mutable std::mutex mutex_;
  Program program_;                 // as the client set it
  std::unique_ptr<Context> roots_;  // the inherited counters; program may end in the fork counter
  int fork_counter_ = -1;           // index of the fork counter in roots_'s events, or -1
  int initial_members_ = 1;
  int joined_ = 0;                          // members seen joining, when there is no fork counter
  uint64_t forks_before_reset_ = 0;         // fork counts moved out by group resets
  uint64_t subtracted_[MAX_COUNTERS] = {};  // in program order
  bool consistent_ = true;
  std::atomic<bool> revoked_{false};  // read without the lock on members' hot paths
  std::set<Context *> members_;
  std::vector<std::unique_ptr<Context>> departed_;
  ForkHook fork_hook_;
};

}  // namespace pmapi
