// SPDX-License-Identifier: MIT
// pmapi_workload KIND N [pmapi|papi]: runs one validation workload of size
// N. With a counter named, it counts the workload's event around the region
// only (so process start-up is left out) and prints "count=<value>
// cpu_ns=<the region's CPU time> wall_ns=<the wall time from before the start
// to after the stop>", or "na=<reason>" when that counter cannot count the
// event here. A task-clock count must lie between the two times, whatever the
// load: the thread is on a CPU for at least its CPU time and at most the
// wall time. Without one
// it just runs, for perf stat to count from outside.
#include <papi.h>
#include <pmapi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <string>

#include "papi_status.h"
#include "regions.h"
#include "workloads.h"

namespace {

int CountWithPmapi(const Workload &workload, long n) {
  pm_info2_t info;
  int rc = pm_initialize(PM_VERIFIED | PM_UNVERIFIED | PM_CAVEAT, &info, nullptr, PM_CURRENT);
  if (rc != 0) return printf("na=%s\n", pm_strerror("pm_initialize", rc)), 0;
  pm_prog_t prog;
  memset(&prog, 0, sizeof prog);
  for (int &event : prog.events) event = COUNT_NOTHING;
  for (int i = 0; i < info.maxevents[0]; ++i) {
    if (strcmp(info.list_events[0][i].short_name, workload.pmapi_name) == 0) {
      prog.events[0] = info.list_events[0][i].event_id;
    }
  }
  if (prog.events[0] == COUNT_NOTHING) return printf("na=not in the catalog\n"), 0;
  prog.mode.w = workload.user_only ? PM_USER : PM_USER | PM_KERNEL;
  if ((rc = pm_set_program_mythread(&prog)) != 0) {
    return printf("na=%s\n", pm_strerror("pm_set_program_mythread", rc)), 0;
  }
  pm_data_t data;
  const long long wall_start = WallNanoseconds();
  pm_start_mythread();
  const long long cpu_start = ThreadCpuNanoseconds();
  bool ran = RunRegion(workload, n);
  const long long cpu_ns = ThreadCpuNanoseconds() - cpu_start;
  pm_stop_mythread();
  const long long wall_ns = WallNanoseconds() - wall_start;
  rc = pm_get_data_mythread(&data);
  pm_delete_program_mythread();
  if (!ran) return printf("na=no instruction loop for this architecture\n"), 0;
  if (rc != 0) return printf("na=%s\n", pm_strerror("pm_get_data_mythread", rc)), 0;
  return printf("count=%lld cpu_ns=%lld wall_ns=%lld\n", data.accu[0], cpu_ns, wall_ns), 0;
}

int CountWithPapi(const Workload &workload, long n) {
  if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT) {
    return printf("na=PAPI_library_init failed\n"), 0;
  }
  // PAPI counts user mode only unless told otherwise; the others count both.
  PAPI_set_domain(workload.user_only ? PAPI_DOM_USER : PAPI_DOM_ALL);
  int set = PAPI_NULL;
  if (PAPI_create_eventset(&set) != PAPI_OK) return printf("na=PAPI_create_eventset\n"), 0;
  int rc = PAPI_add_named_event(set, workload.papi_name);
  if (rc != PAPI_OK) {
    // "Event does not exist" is what PAPI says for every event once its
    // perf_event component disabled itself; give the component's reason.
    std::string cannot = PapiCannotCountReason();
    if (!cannot.empty()) return printf("na=%s\n", cannot.c_str()), 0;
    return printf("na=PAPI has no event %s (%s)\n", workload.papi_name, PAPI_strerror(rc)), 0;
  }
  long long value = 0;
  const long long wall_start = WallNanoseconds();
  if (PAPI_start(set) != PAPI_OK) return printf("na=PAPI_start failed\n"), 0;
  const long long cpu_start = ThreadCpuNanoseconds();
  bool ran = RunRegion(workload, n);
  const long long cpu_ns = ThreadCpuNanoseconds() - cpu_start;
  PAPI_stop(set, &value);
  const long long wall_ns = WallNanoseconds() - wall_start;
  if (!ran) return printf("na=no instruction loop for this architecture\n"), 0;
  return printf("count=%lld cpu_ns=%lld wall_ns=%lld\n", value, cpu_ns, wall_ns), 0;
}

}  // namespace

int main(int argc, char **argv) {
  const Workload *workload = argc >= 3 ? FindWorkload(argv[1]) : nullptr;
  if (!workload) {
    fprintf(stderr,
            "usage: %s getppid|faults|busy|switches|instructions N [pmapi|papi]\n"
            "  switches talks to a partner over descriptors 3 (read) and 4 (write)\n",
            argv[0]);
    return 2;
  }
  const long n = strtol(argv[2], nullptr, 10);
  const std::string counter = argc >= 4 ? argv[3] : "";
  if (counter == "pmapi") return CountWithPmapi(*workload, n);
  if (counter == "papi") return CountWithPapi(*workload, n);
  return RunRegion(*workload, n) ? 0 : 1;
}
