// SPDX-License-Identifier: MIT
#include "core/my_thread.h"

#include <unistd.h>

#include <memory>

#include "core/counting_group.h"
#include "core/registry.h"
#include "core/thread_inherit.h"

namespace pmapi {

namespace {
thread_local bool t_missed = false;
thread_local Status t_missed_reason;
}  // namespace

const Status *MissedInheritance() { return t_missed ? &t_missed_reason : nullptr; }

void RecordMissedInheritance(const Status &status) {
  t_missed = !status.ok();
  t_missed_reason = status;
}

Status CreateMyThreadContext(Program program, bool start, std::shared_ptr<CountingGroup> group,
                             bool new_member) {
  // Also what keeps the pthread_create interposer in static links: this reference pulls in
  // thread_inherit.o.
  if (program.inherit_to_new_threads() || group) RouteNewThreadsThroughInheritance();
  Registry &registry = Registry::Get();
  Status status = registry.CheckThreadAllowed();
  if (!status.ok()) return status;
  GroupTarget target;
  target.pid = gettid();
  target.description = "thread " + std::to_string(target.pid) + " (the calling thread)";
  std::unique_ptr<Context> context;
  status = Context::Create(std::move(program), {target}, start && !group, &context);
  if (!status.ok()) return status;
  if (group) {
    status = group->Join(
        context.get(), start,
        new_member ? CountingGroup::Joining::kNewThread : CountingGroup::Joining::kRoot);
    if (!status.ok()) return status;
  }
  status = registry.AdoptMyThread(std::move(context));
  if (status.ok()) t_missed = false;
  return status;
}

}  // namespace pmapi
