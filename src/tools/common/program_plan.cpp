// SPDX-License-Identifier: MIT
#include "program_plan.h"

#include <string.h>

namespace tools {
namespace {

// Puts every still-countable event on the next free counter (no group).
void Assign(Plan *plan) {
  plan->prog.mode.b.is_group = 0;
  for (int &event : plan->prog.events) event = COUNT_NOTHING;
  int counter = 0;
  for (size_t e = 0; e < plan->ids.size(); ++e) {
    if (!plan->reasons[e].empty()) {
      plan->counter_of_event[e] = -1;
      continue;
    }
    plan->counter_of_event[e] = counter;
    plan->prog.events[counter++] = plan->ids[e];
  }
}

}  // namespace

bool AboutAnEvent(int rc) {
  return rc == Pmapi_NoHardware || rc == Pmapi_InvalidEvent || rc == Pmapi_KernelError ||
         rc == Pmapi_NotSchedulable || rc == Pmapi_Busy || rc == Pmapi_InvalidGroup;
}

std::string RefusalReason(int rc) {
  std::string text = pm_strerror("pmcount", rc);
  const std::string prefix = "pmcount: ";
  if (text.compare(0, prefix.size(), prefix) == 0) text.erase(0, prefix.size());
  return text;
}

bool Plan::empty() const {
  for (int counter : counter_of_event) {
    if (counter >= 0) return false;
  }
  return true;
}

Plan MakePlan(const Selection &selection, const Mode &mode) {
  Plan plan;
  memset(&plan.prog, 0, sizeof plan.prog);
  plan.prog.mode.w = (mode.user ? PM_USER : 0) | (mode.kernel ? PM_KERNEL : 0);
  // Both modes means nothing excluded, as perf stat counts for a privileged user: hypervisor
  // time too (x86 guests have none to exclude), and PMUs that refuse any exclude bit (msr,
  // catalog status caveat) then count.
  plan.prog.mode.b.hypervisor = mode.user && mode.kernel;
  plan.counter_of_event.assign(selection.events.size(), -1);
  plan.reasons.assign(selection.events.size(), "");
  bool all = true;
  for (size_t e = 0; e < selection.events.size(); ++e) {
    plan.ids.push_back(selection.events[e].entry->id);
    plan.reasons[e] = selection.events[e].not_countable;
    if (!plan.reasons[e].empty()) all = false;
  }
  Assign(&plan);
  if (selection.group && all) {
    // The group as such proves pmapi's is_group path; the library puts member i on counter
    // i, exactly where Assign put it.
    for (int &event : plan.prog.events) event = COUNT_NOTHING;
    plan.prog.events[0] = selection.group->id;
    plan.prog.mode.b.is_group = 1;
  }
  return plan;
}

}  // namespace tools
