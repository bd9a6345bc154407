// SPDX-License-Identifier: MIT
#include "core/program.h"

#include <string.h>

#include <utility>

namespace pmapi {

Program Program::FromResolvedAix(const pm_mode_t &mode, const int (&events_as_set)[MAX_COUNTERS],
                                 std::vector<ProgrammedEvent> events) {
  Program program;
  program.mode_ = mode;
  memcpy(program.events_as_set_, events_as_set, sizeof program.events_as_set_);
  program.events_ = std::move(events);
  return program;
}

Program Program::ForEncodedEvent(int event_id, const std::string &name,
                                 const perf_event_attr &attr) {
  return Program().WithEvent(0, event_id, name, attr);
}

Program Program::ForEncodedEvents(const std::vector<ProgrammedEvent> &events) {
  Program program;
  program.events_ = events;
  for (size_t i = 0; i < program.events_.size(); ++i) {
    program.events_[i].counter = static_cast<int>(i);
  }
  return program;
}

void Program::ToAix(bool counting, pm_prog_t *out) const {
  memset(out, 0, sizeof *out);
  out->mode = mode_;
  out->mode.b.count = counting;
  memcpy(out->events, events_as_set_, sizeof out->events);
}

Program Program::WithLibraryEvent(const std::string &name, const perf_event_attr &attr) const {
  return WithEvent(kLibraryCounter, 0, name, attr);
}

Program Program::WithEvent(int counter, int event_id, const std::string &name,
                           const perf_event_attr &attr) const {
  Program extended = *this;
  ProgrammedEvent event;
  event.counter = counter;
  event.event_id = event_id;
  event.name = name;
  event.attr = attr;
  extended.events_.push_back(std::move(event));
  return extended;
}

}  // namespace pmapi
