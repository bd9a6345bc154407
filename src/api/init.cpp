// pm_initialize, pm_init and pm_get_procindex: describe this machine's events and record the
// status filter later calls check events against.
#include <stdarg.h>
#include <stdio.h>

#include <string>

#include "api/export.h"
#include "catalog/catalog.h"
#include "catalog/event_groups.h"
#include "catalog/event_lists.h"
#include "catalog/group_catalog.h"
#include "catalog/init_state.h"
#include "core/last_error.h"

namespace {

using pmapi::Status;

constexpr int kKnownFilterBits = PM_VERIFIED | PM_UNVERIFIED | PM_CAVEAT | PM_GET_GROUPS;

std::string Hex(int value) {
  char text[16];
  snprintf(text, sizeof text, "0x%x", static_cast<unsigned>(value));
  return text;
}

// The checks both entry points share; on success the catalog is loaded.
Status CheckArguments(int filter, const void *pminfo, int proctype) {
  if (!pminfo) return Status(Pmapi_InvalidArg, "pminfo is NULL");
  // On Linux there are no POWER event tables to describe: only this host can be asked for.
  if (proctype != PM_CURRENT && proctype != PM_LINUX_HOST) {
    return Status(
        Pmapi_InvalidProcType,
        "proctype " + std::to_string(proctype) +
            " is not PM_CURRENT (-1) or "
            "PM_LINUX_HOST (" +
            std::to_string(PM_LINUX_HOST) +
            "), the type pm_get_procindex returns; Linux has no tables for other processors");
  }
  if (filter & ~kKnownFilterBits) {
    return Status(Pmapi_InvalidFilter,
                  "filter " + Hex(filter) +
                      " has bits other than "
                      "PM_VERIFIED, PM_UNVERIFIED, PM_CAVEAT and PM_GET_GROUPS");
  }
  if (!(filter & pmapi::kStatusFilterMask)) {
    return Status(Pmapi_InvalidFilter, "filter " + Hex(filter) +
                                           " selects no status: add "
                                           "PM_VERIFIED, PM_UNVERIFIED and/or PM_CAVEAT");
  }
  return pmapi::Catalog::Get().load_status();
}

// The groups/ tables are read only when groups are asked for, so their load error is reported
// only then (and by programs with mode.b.is_group).
Status CheckGroups(int filter) {
  if (!(filter & PM_GET_GROUPS)) return Status::Ok();
  return pmapi::GroupCatalog::Get().load_status();
}

void FillGroups(int filter, pm_groups_info_t *pmgroups) {
  if (!(filter & PM_GET_GROUPS) || !pmgroups) return;
  pmapi::EventGroupList groups = pmapi::EventGroupsForFilter(filter & pmapi::kStatusFilterMask);
  pmgroups->maxgroups = groups.count;
  pmgroups->event_groups = groups.groups;
}

}  // namespace

extern "C" {

int pm_initialize(int filter, pm_info2_t *pminfo, pm_groups_info_t *pmgroups, int proctype) {
  Status status = CheckArguments(filter, pminfo, proctype);
  if (status.ok()) status = CheckGroups(filter);
  if (!status.ok()) return pmapi::Report(status);
  int status_filter = filter & pmapi::kStatusFilterMask;
  const pmapi::EventLists2 &lists = pmapi::EventListsForFilter2(status_filter);
  pminfo->maxpmcs = MAX_COUNTERS;
  pminfo->maxevents = const_cast<int *>(lists.maxevents);
  pminfo->list_events = const_cast<pm_events2_t **>(lists.lists);
  pminfo->thresholdmult = 0;
  pminfo->hthresholdmult = 0;
  pminfo->Hthresholdmult = 0;
  pminfo->reserved = 0;
  pminfo->proc_name = const_cast<char *>(pmapi::Catalog::Get().proc_name().c_str());
  pminfo->proc_feature.w = 0;  // no hypervisor mode, runlatch, PURR or SPURR on Linux
  pminfo->reserved2 = 0;
  FillGroups(filter, pmgroups);
  pmapi::RecordInitialization(status_filter);
  return 0;
}

int pm_init(int filter, pm_info_t *pminfo, ...) {
  // Callers written for AIX 5.1 pass two arguments: the third exists only with PM_GET_GROUPS.
  pm_groups_info_t *pmgroups = nullptr;
  if (filter & PM_GET_GROUPS) {
    va_list args;
    va_start(args, pminfo);
    pmgroups = va_arg(args, pm_groups_info_t *);
    va_end(args);
  }
  Status status = CheckArguments(filter, pminfo, PM_CURRENT);
  if (status.ok()) status = CheckGroups(filter);
  if (!status.ok()) return pmapi::Report(status);
  int status_filter = filter & pmapi::kStatusFilterMask;
  const pmapi::EventLists1 &lists = pmapi::EventListsForFilter1(status_filter);
  pminfo->maxpmcs = MAX_COUNTERS;
  pminfo->maxevents = const_cast<int *>(lists.maxevents);
  pminfo->list_events = const_cast<pm_events_t **>(lists.lists);
  pminfo->thresholdmult = 0;
  pminfo->proc_name = const_cast<char *>(pmapi::Catalog::Get().proc_name().c_str());
  pminfo->hthresholdmult = 0;
  FillGroups(filter, pmgroups);
  pmapi::RecordInitialization(status_filter);
  return 0;
}

int pm_get_procindex(void) { return PM_LINUX_HOST; }

}  // extern "C"
