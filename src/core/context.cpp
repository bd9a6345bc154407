// SPDX-License-Identifier: MIT
#include "core/context.h"

#include <string.h>

#include <utility>

#include "core/counting_group.h"
#include "core/multiplexer.h"

namespace pmapi {

Status Context::Create(Program program, const std::vector<GroupTarget> &targets, bool start,
                       std::unique_ptr<Context> *out) {
  std::unique_ptr<Context> context(new Context);
  context->program_ = std::move(program);
  if (context->program_.multiplex()) {
    Status status = Multiplexer::Create(context->program_, targets, &context->multiplexer_);
    if (!status.ok()) return status;
    context->targets_ = context->multiplexer_->targets();
    if (start) {
      status = context->Start();
      if (!status.ok()) return status;
    }
    *out = std::move(context);
    return Status::Ok();
  }
  // A failure destroys `context`; the session closed what it opened.
  Status status = context->session_.OpenProgram(context->program_, targets, &context->targets_);
  if (!status.ok()) return status;
  // The library's own events come last (Program::WithLibraryEvent): the client's are a prefix.
  for (const ProgrammedEvent &event : context->program_.events()) {
    if (event.counter == kLibraryCounter) break;
    context->counter_of_[context->client_events_++] = static_cast<uint8_t>(event.counter);
  }
  if (start) {
    status = context->Start();
    if (!status.ok()) return status;
  }
  *out = std::move(context);
  return Status::Ok();
}

Context::~Context() {
  // A member that dies keeps its contribution in the group's totals (the
  // kernel's inherited counters hold it); the group only forgets the member.
  if (group_) group_->Forget(this);
}

int Context::group_count() const {
  return multiplexer_ ? multiplexer_->group_count() : static_cast<int>(session_.unit_count());
}

Status Context::Start() {
  if (multiplexer_) {
    // The multiplexer keeps the gate too (SetGate passes it on).
    Status status = multiplexer_->Start();
    counting_ = multiplexer_->counting();
    return status;
  }
  if (gate_open_) {
    Status status = session_.Enable();
    if (!status.ok()) {
      counting_ = false;
      return status;
    }
  }
  counting_ = true;
  return Status::Ok();
}

Status Context::Stop() {
  if (!counting_) return Status(Pmapi_NotCounting, "pm_stop* while counting is off");
  counting_ = false;
  if (multiplexer_) return multiplexer_->Stop();
  return session_.Disable();
}

Status Context::SetGate(bool open) {
  gate_open_ = open;
  if (multiplexer_) return multiplexer_->SetGate(open);
  if (!open) return session_.Disable();
  if (!counting_) return Status::Ok();
  return Start();
}

Status Context::Reset(GroupReading *moved) {
  // A multiplexed member's reset is not subtracted from its counting group (docs/counting.md).
  if (multiplexer_) {
    if (moved) *moved = GroupReading();
    return multiplexer_->Reset();
  }
  if (!moved) return session_.Reset();
  *moved = GroupReading();
  return session_.Reset(moved->values, kMaxGroupEvents);
}

Status Context::ReadTotals(int group_index, GroupReading *totals, bool *multiplexed) const {
  *multiplexed = false;
  // Only the library's own events have one meaning across the sets (summed); the client's
  // are read set by set (Multiplexer::ReadSet).
  if (multiplexer_) return multiplexer_->ReadLibraryEvents(group_index, totals);
  const size_t n = program_.events().size();
  const int first = group_index < 0 ? 0 : group_index;
  const int last = group_index < 0 ? group_count() : group_index + 1;
  if (last - first == 1) {
    // One group (a counting group's roots, usually): read in place, baseline off in place.
    Status status = session_.ReadUnit(first, totals);
    if (!status.ok()) return status;
    const GroupReading &base = session_.baseline(first);
    for (size_t i = 0; i < n; ++i) totals->values[i] -= base.values[i];
    totals->time_enabled -= base.time_enabled;
    totals->time_running -= base.time_running;
    *multiplexed = totals->time_running < totals->time_enabled;
    return Status::Ok();
  }
  *totals = GroupReading();
  for (int g = first; g < last; ++g) {
    GroupReading now(GroupReading::kToBeFilled);
    Status status = session_.ReadUnit(g, &now);
    if (!status.ok()) return status;
    const GroupReading &base = session_.baseline(g);
    for (size_t i = 0; i < n; ++i) totals->values[i] += now.values[i] - base.values[i];
    const uint64_t enabled = now.time_enabled - base.time_enabled;
    const uint64_t running = now.time_running - base.time_running;
    totals->time_enabled += enabled;
    totals->time_running += running;
    *multiplexed |= running < enabled;
  }
  return Status::Ok();
}

// The read every pm_get_data* call makes, so it takes one pass: each group's counts, less its
// baseline, go straight to their counters (ReadTotals' program-order totals would be a second
// buffer and a second pass).
Status Context::Read(int group_index, CounterValues *values, CountTimes *times) const {
  if (multiplexer_) {
    return Status(Pmapi_InvalidArg,
                  "the program was set with an _mx or _mm call: read it with pm_get_data*_mx");
  }
  const size_t first = group_index < 0 ? 0 : static_cast<size_t>(group_index);
  const size_t last = group_index < 0 ? session_.unit_count() : first + 1;
  memset(values->accu, 0, sizeof values->accu);
  CountTimes counted{0, 0};
  bool multiplexed = false;
  for (size_t g = first; g < last; ++g) {
    GroupReading now(GroupReading::kToBeFilled);
    Status status = session_.ReadUnit(g, &now);
    if (!status.ok()) return status;
    const GroupReading &base = session_.baseline(g);
    for (size_t i = 0; i < client_events_; ++i) {
      values->accu[counter_of_[i]] += static_cast<long long>(now.values[i] - base.values[i]);
    }
    const uint64_t enabled = now.time_enabled - base.time_enabled;
    const uint64_t running = now.time_running - base.time_running;
    counted.enabled += enabled;
    counted.running += running;
    multiplexed |= running < enabled;
  }
  values->filled = true;
  if (times) *times = counted;
  return multiplexed ? MultiplexedStatus(counted) : Status::Ok();
}

Status MultiplexedStatus(const CountTimes &times) {
  // In tenths of a percent, formatted by hand: this is a read's result, and reads stay
  // allocation-free (and printf-free) for signal handlers.
  const unsigned long long permille =
      times.enabled ? static_cast<unsigned long long>(1000.0 * times.running / times.enabled + 0.5)
                    : 0;
  return Status(Pmapi_Multiplexed,
                {"the kernel counted the events only ", Decimal(permille / 10).c_str(), ".",
                 Decimal(permille % 10).c_str(),
                 "% of the time they were enabled; the counts are not scaled"});
}

}  // namespace pmapi
