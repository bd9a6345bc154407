// SPDX-License-Identifier: MIT
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

pm_prog_t Counting(pm_prog_t prog) {
  prog.mode.w |= PM_COUNT;
  return prog;
}

const PmapiScope kMyThread = {pm_set_program_mythread, pm_get_data_mythread,
                              pm_delete_program_mythread, "pm_set_program_mythread"};
const PmapiScope kMyGroup = {pm_set_program_mygroup, pm_get_data_mygroup, pm_delete_program_mygroup,
                             "pm_set_program_mygroup"};
const PmapiScope kSystemWide = {pm_set_program, pm_get_data, pm_delete_program,
                                "pm_set_program needs root"};

ScopedProgram::ScopedProgram(benchmark::State &state, const PmapiScope &scope, pm_prog_t prog)
    : scope_(scope), ok_(scope.set(&prog) == 0) {
  if (!ok_) state.SkipWithError(scope.set_failed);
}

ScopedProgram::~ScopedProgram() {
  if (ok_) scope_.remove();
}
