// SPDX-License-Identifier: MIT
#include "core/multiplexer.h"

#include <unistd.h>

#include <atomic>
#include <utility>

#include "base/clock.h"
#include "core/context.h"
#include "core/multiplex_rotator.h"

namespace pmapi {
namespace {

std::atomic<bool> g_by_hand{false};

// Slices end on multiples of the slice on the monotonic clock, so that the contexts of a
// process with the same slice (threads that inherited one program, say) switch on one wake-up
// of the rotator. The first slice is therefore between a few microseconds and one slice long.
uint64_t NextSliceBoundary(uint64_t now, uint64_t slice) { return (now / slice + 1) * slice; }

// Set `set` as the carrier's library events extend it.
Program WithCarriersLibraryEvents(const Program &set, const Program &carrier, size_t own_events) {
  Program extended = set;
  const std::vector<ProgrammedEvent> &events = carrier.events();
  for (size_t i = own_events; i < events.size(); ++i) {
    extended = extended.WithLibraryEvent(events[i].name, events[i].attr);
  }
  return extended;
}

// Adds `count` of `reading`'s values, from its index `from`, to `totals`' from index `to`, and
// its times: a set's targets summed, or the library events every set carries.
void AddReading(const GroupReading &reading, size_t from, size_t count, size_t to,
                GroupReading *totals) {
  for (size_t i = 0; i < count; ++i) totals->values[to + i] += reading.values[from + i];
  totals->time_enabled += reading.time_enabled;
  totals->time_running += reading.time_running;
}

}  // namespace

void DriveMultiplexersByHandForTesting(bool by_hand) { g_by_hand = by_hand; }

Status Multiplexer::Create(const Program &carrier, const std::vector<GroupTarget> &targets,
                           std::unique_ptr<Multiplexer> *out) {
  std::unique_ptr<Multiplexer> mx(new Multiplexer);
  mx->spec_ = carrier.multiplex();
  const MultiplexSpec &spec = *mx->spec_;
  if (spec.sets.empty()) return Status(Pmapi_InvalidArg, "a multiplexed program has no set");
  const size_t own_events = spec.sets[0].events().size();
  mx->library_events_ = static_cast<int>(carrier.events().size() - own_events);
  mx->slice_ns_ = static_cast<uint64_t>(spec.slice_ms) * 1000000u;
  mx->sets_.reserve(spec.sets.size());
  for (size_t k = 0; k < spec.sets.size(); ++k) {
    // Every set opens on the targets set 0 could open (a listed thread may have exited).
    const std::vector<GroupTarget> &on = k == 0 ? targets : mx->sets_[0]->targets();
    std::unique_ptr<Context> set;
    Status status = Context::Create(WithCarriersLibraryEvents(spec.sets[k], carrier, own_events),
                                    on, false, &set);
    if (!status.ok()) {
      if (spec.sets.size() == 1) return status;
      return Status(status.code(), {"event set ", Decimal(k).c_str(), ": ", status.detail_text()});
    }
    if (k > 0 && set->group_count() != mx->sets_[0]->group_count()) {
      return Status(Pmapi_NoSuchThread, "a thread exited while its event sets were being opened");
    }
    mx->sets_.push_back(std::move(set));
  }
  mx->frozen_.resize(mx->sets_.size());
  for (int k = 1; k < mx->set_count(); ++k) mx->Freeze(k);  // only set 0 will count
  if (!g_by_hand) {
    if (!AddToRotation(mx.get())) {
      return Status(Pmapi_Malloc_Err, "cannot start the thread that switches multiplexed sets");
    }
    mx->in_rotation_ = true;
  }
  *out = std::move(mx);
  return Status::Ok();
}

Multiplexer::~Multiplexer() {
  if (in_rotation_) RemoveFromRotation(this);
}

int Multiplexer::group_count() const { return sets_[0]->group_count(); }
const std::vector<GroupTarget> &Multiplexer::targets() const { return sets_[0]->targets(); }

Status Multiplexer::EnableCurrent() { return sets_[current_]->session().Enable(); }

Status Multiplexer::DisableCurrent() { return sets_[current_]->session().Disable(); }

Status Multiplexer::Start() {
  bool wake = false;
  Status status;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (gate_open_ && !active()) {
      status = EnableCurrent();
      if (!status.ok()) return status;
      next_switch_ = NextSliceBoundary(MonotonicNanos(), slice_ns_);
      wake = true;
    }
    counting_ = true;
  }
  // Outside our lock: the rotator takes its own, then ours.
  if (wake && in_rotation_) WakeRotator();
  return status;
}

Status Multiplexer::Stop() {
  std::lock_guard<std::mutex> lock(mutex_);
  const bool was_active = active();
  counting_ = false;
  return was_active ? DisableCurrent() : Status::Ok();
}

Status Multiplexer::SetGate(bool open) {
  bool wake = false;
  Status status;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    const bool was_active = active();
    gate_open_ = open;
    if (was_active && !active()) status = DisableCurrent();
    if (!was_active && active()) {
      status = EnableCurrent();
      if (!status.ok()) {
        gate_open_ = false;
        return status;
      }
      next_switch_ = NextSliceBoundary(MonotonicNanos(), slice_ns_);
      wake = true;
    }
  }
  if (wake && in_rotation_) WakeRotator();
  return status;
}

Status Multiplexer::Reset() {
  std::lock_guard<std::mutex> lock(mutex_);
  for (int k = 0; k < set_count(); ++k) Unfreeze(k);
  for (auto &set : sets_) {
    Status status = set->Reset();
    if (!status.ok()) return status;
  }
  rounds_ = 0;
  for (int k = 0; k < set_count(); ++k) {
    if (k != current_) Freeze(k);
  }
  return Status::Ok();
}

void Multiplexer::Freeze(int set) {
  Frozen &frozen = frozen_[static_cast<size_t>(set)];
  frozen.valid = false;
  frozen.per_group.resize(static_cast<size_t>(sets_[set]->group_count()));
  for (size_t g = 0; g < frozen.per_group.size(); ++g) {
    bool ignored = false;
    // A target that cannot be read now (a thread that exited) is read live, with its error.
    if (!sets_[set]->ReadTotals(static_cast<int>(g), &frozen.per_group[g], &ignored).ok()) return;
  }
  frozen.valid = true;
}

Status Multiplexer::ReadSetLocked(int set, int group_index, GroupReading *totals) const {
  const Frozen &frozen = frozen_[static_cast<size_t>(set)];
  // Targets added since (none today) would not be in the frozen totals: read live then.
  if (!frozen.valid || frozen.per_group.size() != static_cast<size_t>(sets_[set]->group_count())) {
    bool ignored = false;
    return sets_[set]->ReadTotals(group_index, totals, &ignored);
  }
  if (group_index >= 0) {
    *totals = frozen.per_group[static_cast<size_t>(group_index)];
    return Status::Ok();
  }
  // Summed over the targets as Context::ReadTotals sums them.
  *totals = GroupReading();
  const size_t n = sets_[set]->program().events().size();
  for (const GroupReading &reading : frozen.per_group) AddReading(reading, 0, n, 0, totals);
  return Status::Ok();
}

bool Multiplexer::counting() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return counting_;
}

Status Multiplexer::Switch() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!active()) return Status::Ok();
  return AdvanceLocked(1);
}

Status Multiplexer::SwitchDue(uint64_t now) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!active() || now < next_switch_) return Status::Ok();
  // The schedule follows the clock: a rotator that could not run for a few slices (a loaded
  // machine) moves on by every slice that ended, so rounds keep pace with time; the sets'
  // accu_time (the kernel's) still say how long each really counted.
  return AdvanceLocked(1 + (now - next_switch_) / slice_ns_);
}

Status Multiplexer::AdvanceLocked(uint64_t slices) {
  const uint64_t n = static_cast<uint64_t>(set_count());
  const uint64_t position = static_cast<uint64_t>(current_) + slices;
  next_switch_ += slices * slice_ns_;
  rounds_ += static_cast<int>(position / n);
  if (position % n == static_cast<uint64_t>(current_)) return Status::Ok();  // same set again
  Status status = DisableCurrent();
  if (status.ok()) Freeze(current_);
  current_ = static_cast<int>(position % n);
  Unfreeze(current_);
  Status enabled = EnableCurrent();
  return status.ok() ? enabled : status;
}

uint64_t Multiplexer::NextSwitch() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return active() && set_count() > 1 ? next_switch_ : UINT64_MAX;
}

Status Multiplexer::ReadSet(int set, int group_index, GroupReading *totals) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return ReadSetLocked(set, group_index, totals);
}

Status Multiplexer::ReadSets(int group_index, GroupReading *totals, int *rounds) const {
  std::lock_guard<std::mutex> lock(mutex_);
  for (int k = 0; k < set_count(); ++k) {
    Status status = ReadSetLocked(k, group_index, &totals[k]);
    if (!status.ok()) return status;
  }
  *rounds = rounds_;
  return Status::Ok();
}

Status Multiplexer::ReadLibraryEvents(int group_index, GroupReading *totals) const {
  std::lock_guard<std::mutex> lock(mutex_);
  *totals = GroupReading();
  const size_t carrier_first = spec_->sets[0].events().size();
  for (size_t k = 0; k < sets_.size(); ++k) {
    GroupReading reading;
    bool ignored = false;
    Status status = sets_[k]->ReadTotals(group_index, &reading, &ignored);
    if (!status.ok()) return status;
    const size_t first = spec_->sets[k].events().size();
    AddReading(reading, first, static_cast<size_t>(library_events_), carrier_first, totals);
  }
  return Status::Ok();
}

int Multiplexer::rounds() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return rounds_;
}

}  // namespace pmapi
