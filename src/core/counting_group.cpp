// SPDX-License-Identifier: MIT
#include "core/counting_group.h"

#include <stdlib.h>
#include <string.h>

#include <utility>

#include "base/kernel.h"
#include "base/settings.h"
#include "core/fork_counter.h"
#include "core/fork_order.h"
#include "pmapi_settings.h"

namespace pmapi {
namespace {

constexpr const char kForkTracepoint[] = "sched:sched_process_fork";

// Adds `amount` to a running total of what the group's reads take off its kernel totals.
void AddToSubtracted(const GroupReading &amount, size_t n, uint64_t *subtracted) {
  for (size_t i = 0; i < n; ++i) subtracted[i] += amount.values[i];
}

}  // namespace

Status CountingGroup::Create(const Program &program, std::vector<GroupTarget> roots, bool start,
                             std::shared_ptr<CountingGroup> *out) {
  std::shared_ptr<CountingGroup> group(new CountingGroup);
  group->program_ = program;
  for (GroupTarget &root : roots) root.inherit = program.inherit_to_new_threads();
  // With the fork counter first; a kernel that refuses it (no tracefs
  // access) still counts the client's events, and members are counted here.
  perf_event_attr fork_attr;
  // The program's option (PM_NO_FORK_COUNTER) and the setting are for a client that never reads
  // ginfo.members and would rather not have the kernel register a tracepoint for it (pmcount,
  // libpmapi-mpi set the option on their own programs).
  const bool no_fork_counter = (program.mode().w & PM_NO_FORK_COUNTER) != 0;
  if (program.inherit_to_new_threads() && !no_fork_counter && !CurrentSettings().no_fork_counter &&
      ForkCounterAttr(&fork_attr)) {
    AnchorForkCounter(fork_attr);
    Status status = Context::Create(program.WithLibraryEvent(kForkTracepoint, fork_attr), roots,
                                    start, &group->roots_);
    if (status.ok()) group->fork_counter_ = static_cast<int>(program.events().size());
  }
  if (!group->roots_) {
    Status status = Context::Create(program, roots, start, &group->roots_);
    if (!status.ok()) return status;
  }
  group->initial_members_ = group->roots_->group_count();
  group->fork_hook_.Join();
  *out = std::move(group);
  return Status::Ok();
}

CountingGroup::CountingGroup()
    : fork_hook_(kForkRankCountingGroups, this, &LockForFork, &UnlockAfterFork, &ReleaseAfterFork) {
}

CountingGroup::~CountingGroup() { fork_hook_.Leave(); }

void CountingGroup::LockForFork(void *self) { static_cast<CountingGroup *>(self)->mutex_.lock(); }

void CountingGroup::UnlockAfterFork(void *self) {
  static_cast<CountingGroup *>(self)->mutex_.unlock();
}

void CountingGroup::ReleaseAfterFork(void *self) {
  auto *group = static_cast<CountingGroup *>(self);
  group->ReleaseInChild();
  group->mutex_.unlock();
}

Status CountingGroup::Join(Context *member, bool own_counting, Joining joining) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (revoked_) return Status(Pmapi_NoSetProg, "the counting group was deleted meanwhile");
  member->set_group(shared_from_this(), joining == Joining::kRoot);
  members_.insert(member);
  if (joining == Joining::kNewThread) ++joined_;
  Status status = member->SetGate(roots_->counting());
  if (status.ok() && own_counting) status = member->Start();
  return status;
}

void CountingGroup::Forget(Context *member) {
  std::lock_guard<std::mutex> lock(mutex_);
  members_.erase(member);
}

Status CountingGroup::Start(Context *caller) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (revoked_) return Status(Pmapi_NoSetProg, "the counting group was deleted");
  Status status = roots_->Start();
  if (!status.ok()) return status;
  // The other members resume if their own state is on; the caller starts now.
  for (Context *member : members_) {
    Status gate = member->SetGate(true);
    if (status.ok()) status = gate;
  }
  for (auto &departed : departed_) departed->SetGate(true);
  if (status.ok() && caller && !caller->counting()) status = caller->Start();
  return status;
}

Status CountingGroup::Stop(Context *caller) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (revoked_) return Status(Pmapi_NoSetProg, "the counting group was deleted");
  Status status = roots_->Stop();
  if (!status.ok()) return status;
  if (caller && caller->counting()) status = caller->Stop();
  for (Context *member : members_) {
    Status gate = member->SetGate(false);
    if (status.ok()) status = gate;
  }
  for (auto &departed : departed_) departed->SetGate(false);
  return status;
}

Status CountingGroup::Reset(Context *caller) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (revoked_) return Status(Pmapi_NoSetProg, "the counting group was deleted");
  if (caller) {
    Status status = caller->Reset();
    if (!status.ok()) return status;
  }
  return ResetLocked();
}

Status CountingGroup::ResetLocked() {
  GroupReading moved;
  Status status = roots_->Reset(&moved);
  if (!status.ok()) return status;
  if (fork_counter_ >= 0) forks_before_reset_ += moved.values[fork_counter_];
  for (auto &departed : departed_) departed->Reset();
  memset(subtracted_, 0, sizeof subtracted_);
  if (MembersLocked(GroupReading()) > 1) consistent_ = false;
  return Status::Ok();
}

int CountingGroup::MembersLocked(const GroupReading &roots) const {
  if (fork_counter_ < 0) return initial_members_ + joined_;
  return initial_members_ + static_cast<int>(forks_before_reset_ + roots.values[fork_counter_]);
}

Status CountingGroup::Read(CounterValues *values, GroupMembership *membership, CountTimes *times) {
  if (!values) return Status(Pmapi_InvalidArg, "data is NULL");
  std::lock_guard<std::mutex> lock(mutex_);
  if (revoked_) return Status(Pmapi_NoSetProg, "the counting group was deleted");
  GroupReading totals(GroupReading::kToBeFilled);
  bool multiplexed = false;
  Status status = roots_->ReadTotals(-1, &totals, &multiplexed);
  if (!status.ok()) return status;
  uint64_t subtract[MAX_COUNTERS];
  memcpy(subtract, subtracted_, sizeof subtract);
  for (const auto &departed : departed_) {
    GroupReading since;
    bool departed_multiplexed = false;
    if (departed->ReadTotals(0, &since, &departed_multiplexed).ok()) {
      AddToSubtracted(since, departed->program().events().size(), subtract);
    }
  }
  memset(values->accu, 0, sizeof values->accu);
  values->filled = true;
  const uint8_t *counter_of = roots_->counter_of();
  for (size_t i = 0; i < roots_->client_events(); ++i) {
    // Subtractions can exceed the totals only after a group reset made the
    // data inconsistent; AIX's accumulators would wrap, ours stop at zero.
    const uint64_t value = totals.values[i] > subtract[i] ? totals.values[i] - subtract[i] : 0;
    values->accu[counter_of[i]] = static_cast<long long>(value);
  }
  if (membership) {
    membership->members = MembersLocked(totals);
    membership->process_level = program_.process_level();
    membership->consistent = consistent_;
  }
  const CountTimes counted{totals.time_enabled, totals.time_running};
  if (times) *times = counted;
  return multiplexed ? MultiplexedStatus(counted) : Status::Ok();
}

void CountingGroup::Delete() {
  std::unique_ptr<Context> roots;
  std::vector<std::unique_ptr<Context>> departed;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    revoked_ = true;
    for (Context *member : members_) member->SetGate(false);
    roots = std::move(roots_);
    departed = std::move(departed_);
  }
  // Closed outside the lock: members may be asking meanwhile.
}

Status CountingGroup::MemberStart(Context *member) {
  std::lock_guard<std::mutex> lock(mutex_);
  return member->Start();
}

Status CountingGroup::MemberStop(Context *member) {
  std::lock_guard<std::mutex> lock(mutex_);
  return member->Stop();
}

Status CountingGroup::MemberReset(Context *member) {
  std::lock_guard<std::mutex> lock(mutex_);
  GroupReading moved;
  Status status = member->Reset(&moved);
  if (status.ok()) AddToSubtracted(moved, member->program().events().size(), subtracted_);
  return status;
}

void CountingGroup::Depart(std::unique_ptr<Context> member) {
  // The departing member may hold the last reference to this group.
  std::shared_ptr<CountingGroup> keep_alive = shared_from_this();
  std::lock_guard<std::mutex> lock(mutex_);
  members_.erase(member.get());
  member->set_group(nullptr);
  if (revoked_) return;  // nothing left to subtract from
  GroupReading moved;
  if (!member->Reset(&moved).ok()) return;  // unreadable: nothing more to learn from it
  AddToSubtracted(moved, member->program().events().size(), subtracted_);
  // From now on its counters run exactly when the group's inherited counter
  // on its thread does, so that what it does later is subtracted too.
  member->SetGate(roots_->counting());
  if (!member->counting()) member->Start();
  departed_.push_back(std::move(member));
}

bool CountingGroup::counting() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return roots_ && roots_->counting();
}

void CountingGroup::ReleaseInChild() {
  auto release = [](Context *context) { context->ReleaseInChild(); };
  if (roots_) release(roots_.get());
  for (auto &departed : departed_) release(departed.get());
  revoked_ = true;
}

}  // namespace pmapi
