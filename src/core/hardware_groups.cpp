// SPDX-License-Identifier: MIT
#include "core/hardware_groups.h"

#include <sys/syscall.h>
#include <unistd.h>

#include "core/counter_group.h"

namespace pmapi {
namespace {

// Whether the events `indices` fit the counters together; Ok when they do, or the failure.
Status Fits(const std::vector<SessionEvent> &events, const std::vector<size_t> &indices) {
  const Program program = ProgramOf(events, indices);
  GroupTarget self;
  self.pid = static_cast<pid_t>(syscall(SYS_gettid));
  self.description = "the calling thread";
  CounterGroup probe;
  Status status = probe.Open(program, self);
  if (!status.ok()) return status;
  GroupReading after;
  return probe.CheckSchedulable(program, self, &after);
}

Status Pack(const std::vector<SessionEvent> &events, const std::vector<size_t> &indices,
            std::vector<std::vector<size_t>> *groups) {
  Status status = Fits(events, indices);
  if (status.ok()) {
    groups->push_back(indices);
    return status;
  }
  if (status.code() != Pmapi_NotSchedulable) return status;
  if (indices.size() == 1) {
    return Status(Pmapi_NotSchedulable,
                  {"hardware event ", events[indices[0]].name.c_str(),
                   " does not fit the counters even alone: another user (a pinned event, the "
                   "NMI watchdog) may hold them; free them or leave the event out"});
  }
  const size_t half = indices.size() / 2;
  status = Pack(events, {indices.begin(), indices.begin() + half}, groups);
  if (!status.ok()) return status;
  return Pack(events, {indices.begin() + half, indices.end()}, groups);
}

}  // namespace

Program ProgramOf(const std::vector<SessionEvent> &events, const std::vector<size_t> &indices) {
  std::vector<ProgrammedEvent> programmed;
  programmed.reserve(indices.size());
  for (size_t index : indices) {
    ProgrammedEvent event;
    event.event_id = events[index].event_id;
    event.name = events[index].name;
    event.attr = events[index].attr;
    programmed.push_back(std::move(event));
  }
  return Program::ForEncodedEvents(programmed);
}

Status PackHardwareEvents(const std::vector<SessionEvent> &events,
                          std::vector<std::vector<size_t>> *groups) {
  groups->clear();
  std::vector<size_t> chunk;
  for (size_t i = 0; i < events.size(); ++i) {
    if (events[i].kind != EventKind::kHardware) continue;
    chunk.push_back(i);
    if (chunk.size() < static_cast<size_t>(MAX_COUNTERS) && i + 1 < events.size()) continue;
    Status status = Pack(events, chunk, groups);
    if (!status.ok()) return status;
    chunk.clear();
  }
  if (!chunk.empty()) return Pack(events, chunk, groups);
  return Status::Ok();
}

}  // namespace pmapi
