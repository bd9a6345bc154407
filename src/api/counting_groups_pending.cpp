// The counting-group families (_mygroup, _group, _pgroup) are exported so
// that clients link, but answer Pmapi_Unsupported until counting groups are
// implemented (they replace this file).
#include "api/export.h"
#include "core/last_error.h"

namespace {

int Pending(const char *function) {
  return pmapi::Report(Pmapi_Unsupported,
                       std::string(function) +
                           ": counting groups are not implemented in this release; use the "
                           "_mythread or _thread family per thread");
}

}  // namespace

#define PMAPI_PENDING(name, ...) \
  int name(__VA_ARGS__) { return Pending(#name); }

extern "C" {

PMAPI_PENDING(pm_set_program_mygroup, pm_prog_t *)
PMAPI_PENDING(pm_get_program_mygroup, pm_prog_t *)
PMAPI_PENDING(pm_delete_program_mygroup, void)
PMAPI_PENDING(pm_start_mygroup, void)
PMAPI_PENDING(pm_tstart_mygroup, timebasestruct_t *)
PMAPI_PENDING(pm_stop_mygroup, void)
PMAPI_PENDING(pm_tstop_mygroup, timebasestruct_t *)
PMAPI_PENDING(pm_reset_data_mygroup, void)
PMAPI_PENDING(pm_get_data_mygroup, pm_data_t *)
PMAPI_PENDING(pm_get_tdata_mygroup, pm_data_t *, timebasestruct_t *)
PMAPI_PENDING(pm_get_Tdata_mygroup, pm_data_t *, pm_accu_time_t *)

PMAPI_PENDING(pm_set_program_group, pid_t, tid_t, pm_prog_t *)
PMAPI_PENDING(pm_get_program_group, pid_t, tid_t, pm_prog_t *)
PMAPI_PENDING(pm_delete_program_group, pid_t, tid_t)
PMAPI_PENDING(pm_start_group, pid_t, tid_t)
PMAPI_PENDING(pm_tstart_group, pid_t, tid_t, timebasestruct_t *)
PMAPI_PENDING(pm_stop_group, pid_t, tid_t)
PMAPI_PENDING(pm_tstop_group, pid_t, tid_t, timebasestruct_t *)
PMAPI_PENDING(pm_reset_data_group, pid_t, tid_t)
PMAPI_PENDING(pm_get_data_group, pid_t, tid_t, pm_data_t *)
PMAPI_PENDING(pm_get_tdata_group, pid_t, tid_t, pm_data_t *, timebasestruct_t *)
PMAPI_PENDING(pm_get_Tdata_group, pid_t, tid_t, pm_data_t *, pm_accu_time_t *)

PMAPI_PENDING(pm_set_program_pgroup, pid_t, tid_t, ptid_t, pm_prog_t *)
PMAPI_PENDING(pm_get_program_pgroup, pid_t, tid_t, ptid_t, pm_prog_t *)
PMAPI_PENDING(pm_delete_program_pgroup, pid_t, tid_t, ptid_t)
PMAPI_PENDING(pm_start_pgroup, pid_t, tid_t, ptid_t)
PMAPI_PENDING(pm_tstart_pgroup, pid_t, tid_t, ptid_t, timebasestruct_t *)
PMAPI_PENDING(pm_stop_pgroup, pid_t, tid_t, ptid_t)
PMAPI_PENDING(pm_tstop_pgroup, pid_t, tid_t, ptid_t, timebasestruct_t *)
PMAPI_PENDING(pm_reset_data_pgroup, pid_t, tid_t, ptid_t)
PMAPI_PENDING(pm_get_data_pgroup, pid_t, tid_t, ptid_t, pm_data_t *)
PMAPI_PENDING(pm_get_tdata_pgroup, pid_t, tid_t, ptid_t, pm_data_t *, timebasestruct_t *)
PMAPI_PENDING(pm_get_Tdata_pgroup, pid_t, tid_t, ptid_t, pm_data_t *, pm_accu_time_t *)

}  // extern "C"
