/* SPDX-License-Identifier: MIT */
/*
 * libhpm.h - the HPM Toolkit's instrumentation API (libhpm), for Linux.
 *
 * Source compatible with programs instrumented for AIX's libhpm: mark code
 * sections with hpmStart/hpmStop (hpmTstart/hpmTstop in threaded regions)
 * between hpmInit and hpmTerminate, link -lhpm (`pkg-config --libs libhpm`),
 * and hpmTerminate writes a report per task.  Counting goes through the
 * public pm_* API of libpmapi.  See docs/libhpm.md for the event selection
 * (HPM_EVENT_SET, libHPMevents), the report and its file names.
 *
 * The calls are macros that add the caller's __FILE__ and __LINE__ to the
 * report; the plain names are also exported as functions (for dlsym and for
 * wrapper layers), and LIBHPM_NO_MACROS leaves the macros out.
 */
#ifndef _H_LIBHPM
#define _H_LIBHPM

#ifdef __cplusplus
extern "C" {
#endif

/* Section ids run from 0 to HPM_NUM_INST_PTS (100 unless the environment
 * variable HPM_NUM_INST_PTS says otherwise): numbering from 0 or from 1 fits. */
#define HPM_DEFAULT_INST_PTS 100

void hpmInit(int taskID, const char *progName);
void hpmTerminate(int taskID);
void hpmStart(int instID, const char *label);
void hpmStop(int instID);
void hpmTstart(int instID, const char *label);
void hpmTstop(int instID);
/* The calling thread's counts since hpmInit (since its first libhpm call for
 * a thread that existed before hpmInit): one value per counted event, at most
 * 8 (MAX_COUNTERS of pmapi.h).  hpmGetTimeAndCounters writes at most
 * numCounters values and the wall-clock seconds since hpmInit. */
void hpmGetCounters(long long *values);
void hpmGetTimeAndCounters(int numCounters, double *time, long long *values);

/* The same calls with the caller's source position: what the macros call. */
void hpm_init_at(int taskID, const char *progName, const char *file, int line);
void hpm_terminate_at(int taskID, const char *file, int line);
void hpm_start_at(int instID, const char *label, const char *file, int line);
void hpm_stop_at(int instID, const char *file, int line);
void hpm_tstart_at(int instID, const char *label, const char *file, int line);
void hpm_tstop_at(int instID, const char *file, int line);

#ifndef LIBHPM_NO_MACROS
#define hpmInit(taskID, progName) hpm_init_at((taskID), (progName), __FILE__, __LINE__)
#define hpmTerminate(taskID) hpm_terminate_at((taskID), __FILE__, __LINE__)
#define hpmStart(instID, label) hpm_start_at((instID), (label), __FILE__, __LINE__)
#define hpmStop(instID) hpm_stop_at((instID), __FILE__, __LINE__)
#define hpmTstart(instID, label) hpm_tstart_at((instID), (label), __FILE__, __LINE__)
#define hpmTstop(instID) hpm_tstop_at((instID), __FILE__, __LINE__)
#endif

#ifdef __cplusplus
}
#endif

#endif /* _H_LIBHPM */
