// SPDX-License-Identifier: MIT
#include "api/aix_program.h"

#include <string>
#include <utility>
#include <vector>

#include "catalog/catalog.h"
#include "catalog/event_groups.h"

namespace pmapi {

Status ProgramFromAix(const pm_prog_t &prog, Program *out) {
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

  std::vector<ProgrammedEvent> events;
  for (int counter = 0; counter < MAX_COUNTERS; ++counter) {
    const int id = mode.b.is_group ? group_members[counter] : prog.events[counter];
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
    events.push_back(std::move(event));
  }
  if (events.empty()) {
    return Status(Pmapi_NoEvents, "every one of the " + std::to_string(MAX_COUNTERS) +
                                      " counters is COUNT_NOTHING");
  }
  *out = Program::FromResolvedAix(mode, prog.events, std::move(events));
  return Status::Ok();
}

}  // namespace pmapi
