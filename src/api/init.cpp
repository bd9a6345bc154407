// pm_initialize, pm_init (every arity) and pm_get_procindex: describe this machine's events, or
// another processor's, and record the status filter later calls check events against.
#include <stdarg.h>
#include <stdio.h>

#include <string>

#include "api/export.h"
#include "catalog/catalog.h"
#include "catalog/event_groups.h"
#include "catalog/event_lists.h"
#include "catalog/group_catalog.h"
#include "catalog/init_state.h"
#include "catalog/processor_lists.h"
#include "catalog/text_fields.h"
#include "base/last_error.h"

namespace {

using pmapi::Status;

constexpr int kKnownFilterBits = PM_VERIFIED | PM_UNVERIFIED | PM_CAVEAT | PM_GET_GROUPS;

// A filter that selects no status selects every status, as AIX clients expect: hypre calls
// pm_init(0, &info), and PM_GET_GROUPS alone asks for the groups of every event.
int StatusFilter(int filter) {
  int status_filter = filter & pmapi::kStatusFilterMask;
  return status_filter ? status_filter : pmapi::kStatusFilterMask;
}

// The checks every entry point shares.
Status CheckArguments(int filter, const void *pminfo) {
  if (!pminfo) return Status(Pmapi_InvalidArg, "pminfo is NULL");
  if (filter & ~kKnownFilterBits) {
    return Status(Pmapi_InvalidFilter,
                  "filter " + pmapi::Hex(static_cast<unsigned>(filter)) +
                      " has bits other than "
                      "PM_VERIFIED, PM_UNVERIFIED, PM_CAVEAT and PM_GET_GROUPS");
  }
  return Status::Ok();
}

// For this machine: the catalog is loaded, and the groups/ tables when groups are asked for
// (they are read only then, so their load error is reported only then, and by programs with
// mode.b.is_group).
Status CheckHost(int filter) {
  Status status = pmapi::Catalog::Get().load_status();
  if (!status.ok() || !(filter & PM_GET_GROUPS)) return status;
  return pmapi::GroupCatalog::Get().load_status();
}

void FillGroups(int filter, pm_groups_info_t *pmgroups) {
  if (!(filter & PM_GET_GROUPS) || !pmgroups) return;
  pmapi::EventGroupList groups = pmapi::EventGroupsForFilter(StatusFilter(filter));
  pmgroups->maxgroups = groups.count;
  pmgroups->event_groups = groups.groups;
}

// Another processor's lists carry no groups: libpfm4 has none to give.
void FillNoGroups(int filter, pm_groups_info_t *pmgroups) {
  if (!(filter & PM_GET_GROUPS) || !pmgroups) return;
  pmgroups->maxgroups = 0;
  pmgroups->event_groups = nullptr;
}

int Initialize2(int filter, pm_info2_t *pminfo, pm_groups_info_t *pmgroups, int proctype) {
  Status status = CheckArguments(filter, pminfo);
  if (!status.ok()) return pmapi::Report(status);
  const pmapi::EventLists2 *lists = nullptr;
  const char *proc_name = nullptr;
  bool host = pmapi::IsHostProcType(proctype);
  if (host) {
    status = CheckHost(filter);
    if (status.ok()) {
      lists = &pmapi::EventListsForFilter2(StatusFilter(filter));
      proc_name = pmapi::Catalog::Get().proc_name().c_str();
    }
  } else {
    status = pmapi::ForeignProcessorLists2(proctype, StatusFilter(filter), &lists, &proc_name);
  }
  if (!status.ok()) return pmapi::Report(status);
  pminfo->maxpmcs = MAX_COUNTERS;
  pminfo->maxevents = const_cast<int *>(lists->maxevents);
  pminfo->list_events = const_cast<pm_events2_t **>(lists->lists);
  pminfo->thresholdmult = 0;
  pminfo->hthresholdmult = 0;
  pminfo->Hthresholdmult = 0;
  pminfo->reserved = 0;
  pminfo->proc_name = const_cast<char *>(proc_name);
  pminfo->proc_feature.w = 0;  // no hypervisor mode, runlatch, PURR or SPURR on Linux
  pminfo->reserved2 = 0;
  if (!host) {
    // A description only: this machine cannot count another processor's events.
    FillNoGroups(filter, pmgroups);
    return 0;
  }
  FillGroups(filter, pmgroups);
  pmapi::RecordInitialization(StatusFilter(filter));
  return 0;
}

int Initialize1(int filter, pm_info_t *pminfo, pm_groups_info_t *pmgroups, int proctype) {
  Status status = CheckArguments(filter, pminfo);
  if (!status.ok()) return pmapi::Report(status);
  const pmapi::EventLists1 *lists = nullptr;
  const char *proc_name = nullptr;
  bool host = pmapi::IsHostProcType(proctype);
  if (host) {
    status = CheckHost(filter);
    if (status.ok()) {
      lists = &pmapi::EventListsForFilter1(StatusFilter(filter));
      proc_name = pmapi::Catalog::Get().proc_name().c_str();
    }
  } else {
    status = pmapi::ForeignProcessorLists1(proctype, StatusFilter(filter), &lists, &proc_name);
  }
  if (!status.ok()) return pmapi::Report(status);
  pminfo->maxpmcs = MAX_COUNTERS;
  pminfo->maxevents = const_cast<int *>(lists->maxevents);
  pminfo->list_events = const_cast<pm_events_t **>(lists->lists);
  pminfo->thresholdmult = 0;
  pminfo->proc_name = const_cast<char *>(proc_name);
  pminfo->hthresholdmult = 0;
  if (!host) {
    FillNoGroups(filter, pmgroups);
    return 0;
  }
  FillGroups(filter, pmgroups);
  pmapi::RecordInitialization(StatusFilter(filter));
  return 0;
}

}  // namespace

extern "C" {

int pm_initialize(int filter, pm_info2_t *pminfo, pm_groups_info_t *pmgroups, int proctype) {
  return Initialize2(filter, pminfo, pmgroups, proctype);
}

// The header routes pm_init(...) by its number of arguments to these three, so that no call
// reads an argument its caller did not pass.
int pm_init_args2(int filter, pm_info_t *pminfo) {
  return Initialize1(filter, pminfo, nullptr, PM_CURRENT);
}

int pm_init_args3(int filter, pm_info_t *pminfo, pm_groups_info_t *pmgroups) {
  return Initialize1(filter, pminfo, pmgroups, PM_CURRENT);
}

int pm_init_args4(int filter, pm_info_t *pminfo, pm_groups_info_t *pmgroups, int proctype) {
  return Initialize1(filter, pminfo, pmgroups, proctype);
}

// The symbol itself, for callers that find it with dlsym or declare it themselves (the header's
// macro does not reach them): the third argument is read only with PM_GET_GROUPS, so such a
// caller passes one then (docs/porting.md). Parenthesized: the name is a macro here.
int(pm_init)(int filter, pm_info_t *pminfo, ...) {
  pm_groups_info_t *pmgroups = nullptr;
  if (filter & PM_GET_GROUPS) {
    va_list args;
    va_start(args, pminfo);
    pmgroups = va_arg(args, pm_groups_info_t *);
    va_end(args);
  }
  return Initialize1(filter, pminfo, pmgroups, PM_CURRENT);
}

int pm_get_procindex(void) { return PM_LINUX_HOST; }

}  // extern "C"
