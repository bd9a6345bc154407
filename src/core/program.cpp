#include "core/program.h"

#include <string.h>

#include "catalog/catalog.h"
#include "catalog/event_groups.h"

namespace pmapi {

Status Program::FromAix(const pm_prog_t &prog, Program *out) {
  if (!LibraryInitialized()) return Status(Pmapi_NoInit, "pm_set_program* before pm_initialize");
  const pm_mode_t mode = prog.mode;
  if (mode.b.threshold != 0) {
    return Status(Pmapi_Threshold, "mode.b.threshold is " + std::to_string(mode.b.threshold) +
                                       "; no Linux event supports a threshold");
  }
  // With is_group, events[0] names a group whose members go on counters 0..n-1; the events
  // as the client passed them are still what pm_get_program* hands back.
  int group_members[MAX_COUNTERS] = {};
  if (mode.b.is_group) {
    Status status = GroupMembersForProgram(prog.events[0], group_members);
    if (!status.ok()) return status;
  }
  if (!mode.b.user && !mode.b.kernel) {
    return Status(Pmapi_NoDomain,
                  "mode.w is " + std::to_string(mode.w) + ": neither PM_USER nor PM_KERNEL is set");
  }

  Program program;
  program.mode_ = mode;
  for (int counter = 0; counter < MAX_COUNTERS; ++counter) {
    const int id = mode.b.is_group ? group_members[counter] : prog.events[counter];
    program.events_as_set_[counter] = prog.events[counter];
    if (id == COUNT_NOTHING) continue;
    ProgrammedEvent event;
    event.counter = counter;
    event.event_id = id;
    const CatalogEvent *entry = nullptr;
    Status status = ResolveEventForCounter(id, counter, &event.attr, &entry);
    if (!status.ok()) return status;
    event.name = entry ? entry->short_name : std::to_string(id);
    event.attr.size = sizeof(perf_event_attr);
    event.attr.exclude_user = !mode.b.user;
    event.attr.exclude_kernel = !mode.b.kernel;
    event.attr.exclude_hv = !mode.b.hypervisor;
    event.attr.exclude_idle = mode.b.runlatch;
    program.events_.push_back(std::move(event));
  }
  if (program.events_.empty()) {
    return Status(Pmapi_NoEvents, "every one of the " + std::to_string(MAX_COUNTERS) +
                                      " counters is COUNT_NOTHING");
  }
  *out = std::move(program);
  return Status::Ok();
}

Program Program::ForEncodedEvent(int event_id, const std::string &name,
                                 const perf_event_attr &attr) {
  return Program().WithEvent(0, event_id, name, attr);
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
