// SPDX-License-Identifier: MIT
// Entry points Linux cannot offer. Each is exported (programs that link or
// dlsym them keep working) and answers Pmapi_Unsupported with a reason:
// - WPAR (_wp): AIX workload partitions have no Linux counterpart;
// - EBB/BHRB and counter frequencies: POWER8+ hardware features;
// - pmc_*/mmcr_*: raw POWER registers (they return -1 with errno ENOSYS,
//   as AIX's return -1 on failure).
#include <errno.h>

#include "api/export.h"
#include "base/last_error.h"

using pmapi::Report;

namespace {

int Unsupported(const char *function, const char *why) {
  return Report(pmapi::Status(Pmapi_Unsupported, {function, ": ", why}));
}

constexpr const char kWpar[] = "AIX workload partitions (WPAR) do not exist on Linux";
constexpr const char kPower[] = "a POWER8+ hardware feature with no Linux equivalent";

}  // namespace

#define PMAPI_UNSUPPORTED(name, why, ...) \
  int name(__VA_ARGS__) { return Unsupported(#name, why); }

extern "C" {

// WPAR
PMAPI_UNSUPPORTED(pm_set_program_wp, kWpar, cid_t, pm_prog_t *)
PMAPI_UNSUPPORTED(pm_set_program_wp_mm, kWpar, cid_t, pm_prog_mm_t *)
PMAPI_UNSUPPORTED(pm_get_program_wp, kWpar, cid_t, pm_prog_t *)
PMAPI_UNSUPPORTED(pm_get_program_wp_mm, kWpar, cid_t, pm_prog_mm_t *)
PMAPI_UNSUPPORTED(pm_delete_program_wp, kWpar, cid_t)
PMAPI_UNSUPPORTED(pm_start_wp, kWpar, cid_t)
PMAPI_UNSUPPORTED(pm_tstart_wp, kWpar, cid_t, timebasestruct_t *)
PMAPI_UNSUPPORTED(pm_stop_wp, kWpar, cid_t)
PMAPI_UNSUPPORTED(pm_tstop_wp, kWpar, cid_t, timebasestruct_t *)
PMAPI_UNSUPPORTED(pm_reset_data_wp, kWpar, cid_t)
PMAPI_UNSUPPORTED(pm_get_data_wp, kWpar, pm_wp_handle_t, pm_data_t *)
PMAPI_UNSUPPORTED(pm_get_tdata_wp, kWpar, pm_wp_handle_t, pm_data_t *, timebasestruct_t *)
PMAPI_UNSUPPORTED(pm_get_Tdata_wp, kWpar, pm_wp_handle_t, pm_data_t *, pm_accu_time_t *)
PMAPI_UNSUPPORTED(pm_get_data_wp_mx, kWpar, pm_wp_handle_t, pm_data_mx_t *)
PMAPI_UNSUPPORTED(pm_get_tdata_wp_mx, kWpar, pm_wp_handle_t, pm_data_mx_t *, timebasestruct_t *)
PMAPI_UNSUPPORTED(pm_get_data_lcpu_wp, kWpar, pm_wp_handle_t, int, pm_data_t *)
PMAPI_UNSUPPORTED(pm_get_tdata_lcpu_wp, kWpar, pm_wp_handle_t, int, pm_data_t *, timebasestruct_t *)
PMAPI_UNSUPPORTED(pm_get_Tdata_lcpu_wp, kWpar, pm_wp_handle_t, int, pm_data_t *, pm_accu_time_t *)
PMAPI_UNSUPPORTED(pm_get_data_lcpu_wp_mx, kWpar, pm_wp_handle_t, int, pm_data_mx_t *)
PMAPI_UNSUPPORTED(pm_get_tdata_lcpu_wp_mx, kWpar, pm_wp_handle_t, int, pm_data_mx_t *,
                  timebasestruct_t *)
PMAPI_UNSUPPORTED(pm_get_wplist, kWpar, const char *, pm_wpar_ctx_info_t *, int *)

// POWER8+ features
PMAPI_UNSUPPORTED(pm_set_ebb_handler, kPower, void *, void *)
PMAPI_UNSUPPORTED(pm_clear_ebb_handler, kPower, void **, void **)
PMAPI_UNSUPPORTED(pm_enable_bhrb, kPower, pm_bhrb_ifm_t)
PMAPI_UNSUPPORTED(pm_disable_bhrb, kPower, void)
PMAPI_UNSUPPORTED(pm_set_counter_frequency_mythread, kPower, unsigned int *)
PMAPI_UNSUPPORTED(pm_set_counter_frequency_thread, kPower, pid_t, tid_t, unsigned int *)
PMAPI_UNSUPPORTED(pm_set_counter_frequency_pthread, kPower, pid_t, tid_t, ptid_t, unsigned int *)
PMAPI_UNSUPPORTED(mmcr_read, kPower, void *)
PMAPI_UNSUPPORTED(mmcr_write, kPower, int, void *)

static int RawRegisterUnsupported(const char *function) {
  Unsupported(function, "raw POWER performance-monitor registers do not exist on Linux");
  errno = ENOSYS;
  return -1;
}

int pmc_read_1to4(void *) { return RawRegisterUnsupported("pmc_read_1to4"); }
int pmc_read_5to6(void *) { return RawRegisterUnsupported("pmc_read_5to6"); }
int pmc_write(int, void *) { return RawRegisterUnsupported("pmc_write"); }

}  // extern "C"
