// SPDX-License-Identifier: MIT
// pm_initialize, pm_init (every arity) and pm_get_procindex: describe this machine's events, or
// another processor's, and record the status filter later calls check events against.
#include <stdarg.h>
#include <stdio.h>

#include <string>
#include <type_traits>

#include "api/c_boundary.h"
#include "api/export.h"
#include "base/last_error.h"
#include "catalog/catalog.h"
#include "catalog/event_groups.h"
#include "catalog/event_lists.h"
#include "catalog/group_catalog.h"
#include "catalog/processor_lists.h"
#include "catalog/tables.h"

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

// pm_info2_t and pm_info_t differ in their fields and list types; everything around filling
// them is the same (Initialize below).
const pmapi::EventLists2 &HostLists(int filter, const pm_info2_t *) {
  return pmapi::EventListsForFilter2(StatusFilter(filter));
}
const pmapi::EventLists1 &HostLists(int filter, const pm_info_t *) {
  return pmapi::EventListsForFilter1(StatusFilter(filter));
}
Status ForeignLists(int proctype, int filter, const pmapi::EventLists2 **lists, const char **name) {
  return pmapi::ForeignProcessorLists2(proctype, StatusFilter(filter), lists, name);
}
Status ForeignLists(int proctype, int filter, const pmapi::EventLists1 **lists, const char **name) {
  return pmapi::ForeignProcessorLists1(proctype, StatusFilter(filter), lists, name);
}

void FillInfo(const pmapi::EventLists2 &lists, const char *proc_name, pm_info2_t *pminfo) {
  pminfo->maxpmcs = MAX_COUNTERS;
  pminfo->maxevents = const_cast<int *>(lists.maxevents);
  pminfo->list_events = const_cast<pm_events2_t **>(lists.lists);
  pminfo->thresholdmult = 0;
  pminfo->hthresholdmult = 0;
  pminfo->Hthresholdmult = 0;
  pminfo->reserved = 0;
  pminfo->proc_name = const_cast<char *>(proc_name);
  pminfo->proc_feature.w = 0;  // no hypervisor mode, runlatch, PURR or SPURR on Linux
  pminfo->reserved2 = 0;
}
void FillInfo(const pmapi::EventLists1 &lists, const char *proc_name, pm_info_t *pminfo) {
  pminfo->maxpmcs = MAX_COUNTERS;
  pminfo->maxevents = const_cast<int *>(lists.maxevents);
  pminfo->list_events = const_cast<pm_events_t **>(lists.lists);
  pminfo->thresholdmult = 0;
  pminfo->proc_name = const_cast<char *>(proc_name);
  pminfo->hthresholdmult = 0;
}

template <typename Info>
int Initialize(int filter, Info *pminfo, pm_groups_info_t *pmgroups, int proctype) {
  return pmapi::Guarded([&] {
    Status status = CheckArguments(filter, pminfo);
    if (!status.ok()) return pmapi::Report(status);
    const std::remove_reference_t<decltype(HostLists(filter, pminfo))> *lists = nullptr;
    const char *proc_name = nullptr;
    const bool host = pmapi::IsHostProcType(proctype);
    if (host) {
      status = CheckHost(filter);
      if (status.ok()) {
        lists = &HostLists(filter, pminfo);
        proc_name = pmapi::Catalog::Get().proc_name().c_str();
      }
    } else {
      status = ForeignLists(proctype, filter, &lists, &proc_name);
    }
    if (!status.ok()) return pmapi::Report(status);
    FillInfo(*lists, proc_name, pminfo);
    if (!host) {
      // A description only: this machine cannot count another processor's events.
      FillNoGroups(filter, pmgroups);
      return 0;
    }
    FillGroups(filter, pmgroups);
    pmapi::RecordInitialization(StatusFilter(filter));
    return 0;
  });
}

}  // namespace

extern "C" {

int pm_initialize(int filter, pm_info2_t *pminfo, pm_groups_info_t *pmgroups, int proctype) {
  return Initialize(filter, pminfo, pmgroups, proctype);
}

// The header routes pm_init(...) by its number of arguments to these three, so that no call
// reads an argument its caller did not pass.
int pm_init_args2(int filter, pm_info_t *pminfo) {
  return Initialize(filter, pminfo, nullptr, PM_CURRENT);
}

int pm_init_args3(int filter, pm_info_t *pminfo, pm_groups_info_t *pmgroups) {
  return Initialize(filter, pminfo, pmgroups, PM_CURRENT);
}

int pm_init_args4(int filter, pm_info_t *pminfo, pm_groups_info_t *pmgroups, int proctype) {
  return Initialize(filter, pminfo, pmgroups, proctype);
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
  return Initialize(filter, pminfo, pmgroups, PM_CURRENT);
}

int pm_get_procindex(void) { return PM_LINUX_HOST; }

}  // extern "C"
