#include "core/context.h"

#include <stdio.h>
#include <string.h>

#include <utility>

namespace pmapi {

Status Context::Create(Program program, const std::vector<GroupTarget> &targets, bool start,
                       std::unique_ptr<Context> *out) {
  std::unique_ptr<Context> context(new Context);
  context->program_ = std::move(program);
  context->targets_ = targets;
  context->groups_.resize(targets.size());
  context->baselines_.resize(targets.size());
  for (size_t i = 0; i < targets.size(); ++i) {
    // A failure destroys `context`, whose groups close what they opened.
    Status status = context->groups_[i].Open(context->program_, targets[i]);
    if (!status.ok()) return status;
  }
  if (start) {
    Status status = context->Start();
    if (!status.ok()) return status;
  }
  *out = std::move(context);
  return Status::Ok();
}

Status Context::Start() {
  for (const CounterGroup &group : groups_) {
    Status status = group.Enable();
    if (!status.ok()) {
      // Leave no CPU counting while the caller is told counting failed.
      for (const CounterGroup &other : groups_) other.Disable();
      counting_ = false;
      return status;
    }
  }
  counting_ = true;
  return Status::Ok();
}

Status Context::Stop() {
  if (!counting_) return Status(Pmapi_NotCounting, "pm_stop* while counting is off");
  Status first_failure;
  for (const CounterGroup &group : groups_) {
    Status status = group.Disable();
    if (!status.ok() && first_failure.ok()) first_failure = status;
  }
  counting_ = false;
  return first_failure;
}

Status Context::Reset() {
  // Read everything first so that a failure leaves the old baselines intact.
  std::vector<GroupReading> current(groups_.size());
  for (size_t i = 0; i < groups_.size(); ++i) {
    Status status = groups_[i].Read(&current[i]);
    if (!status.ok()) return status;
  }
  baselines_ = std::move(current);
  return Status::Ok();
}

Status Context::ReadDelta(int group_index, GroupReading *delta) const {
  GroupReading now;
  Status status = groups_[group_index].Read(&now);
  if (!status.ok()) return status;
  const GroupReading &base = baselines_[group_index];
  const size_t n = program_.events().size();
  for (size_t i = 0; i < n; ++i) delta->values[i] = now.values[i] - base.values[i];
  delta->time_enabled = now.time_enabled - base.time_enabled;
  delta->time_running = now.time_running - base.time_running;
  return Status::Ok();
}

Status Context::Read(int group_index, pm_data_t *data, CountTimes *times) const {
  const std::vector<ProgrammedEvent> &events = program_.events();
  uint64_t sums[MAX_COUNTERS] = {};
  CountTimes total;
  bool multiplexed = false;
  const int first = group_index < 0 ? 0 : group_index;
  const int last = group_index < 0 ? group_count() : group_index + 1;
  for (int g = first; g < last; ++g) {
    GroupReading delta;
    Status status = ReadDelta(g, &delta);
    if (!status.ok()) return status;
    for (size_t i = 0; i < events.size(); ++i) sums[i] += delta.values[i];
    total.enabled += delta.time_enabled;
    total.running += delta.time_running;
    multiplexed |= delta.time_running < delta.time_enabled;
  }
  memset(data, 0, sizeof *data);
  for (size_t i = 0; i < events.size(); ++i) {
    data->accu[events[i].counter] = static_cast<long long>(sums[i]);
  }
  if (times) *times = total;
  if (multiplexed) {
    char share[32];
    snprintf(share, sizeof share, "%.1f%%",
             total.enabled ? 100.0 * total.running / total.enabled : 0.0);
    return Status(Pmapi_Multiplexed, std::string("the kernel counted the events only ") + share +
                                         " of the time they were enabled; the counts are not "
                                         "scaled");
  }
  return Status::Ok();
}

}  // namespace pmapi
