#include "pmapi_fixture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "raw_group.h"

namespace {

std::vector<int> EventIds() {
  static std::vector<int> ids = [] {
    pm_info2_t info;
    int rc = pm_initialize(PM_VERIFIED | PM_UNVERIFIED | PM_CAVEAT, &info, nullptr, PM_CURRENT);
    if (rc != 0) {
      pm_error("pm_initialize", rc);
      exit(1);
    }
    std::vector<int> found;
    for (const std::string &name : EightSoftwareEventNames()) {
      for (int i = 0; i < info.maxevents[0]; ++i) {
        if (name == info.list_events[0][i].short_name) {
          found.push_back(info.list_events[0][i].event_id);
          break;
        }
      }
    }
    if (found.size() != EightSoftwareEventNames().size()) {
      fprintf(stderr, "the catalog lacks one of the benchmark's software events\n");
      exit(1);
    }
    return found;
  }();
  return ids;
}

}  // namespace

pm_prog_t ProgramWithEvents(int n) {
  const std::vector<int> ids = EventIds();
  pm_prog_t prog;
  memset(&prog, 0, sizeof prog);
  for (int &event : prog.events) event = COUNT_NOTHING;
  for (int i = 0; i < n; ++i) prog.events[i] = ids[i];
  prog.mode.w = PM_USER | PM_KERNEL;
  return prog;
}

pm_prog_t FourEventProgram() { return ProgramWithEvents(4); }
