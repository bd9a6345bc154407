#include "core/my_thread.h"

#include <unistd.h>

#include <memory>

#include "core/counting_group.h"
#include "core/registry.h"

namespace pmapi {

extern const bool kThreadInheritanceLinked;  // see thread_inherit.cpp

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
  // Keeps the pthread_create interposer in static links (the value is true).
  if (!kThreadInheritanceLinked) return Status(Pmapi_KernelError, "libpmapi built without it");
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
