/* SPDX-License-Identifier: MIT */
/*
 * pmapi.h - the AIX Performance Monitor API, for Linux.
 *
 * Source compatible with programs written against AIX's <pmapi.h>: the same
 * type names, member order, constants and entry points.  Counting is done by
 * perf_event_open(2); events are named by libpfm4.  See docs/ for the
 * behaviour on Linux and docs/errors.md for the numeric error codes.
 *
 * Installed as <prefix>/include/libpmapi/pmapi.h so that it never shadows
 * Performance Co-Pilot's <pcp/pmapi.h>; `pkg-config --cflags pmapi` adds that
 * directory, so clients keep writing #include <pmapi.h>.
 */
#ifndef _H_PMAPI
#define _H_PMAPI

#include <stddef.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ */
/* Byte order: AIX allocates bitfields from the most significant bit.  */
/* On a little-endian target the fields are declared in reverse order  */
/* so that the numeric value of every `w` word is the same as on AIX.  */
/* ------------------------------------------------------------------ */
#if defined(__BYTE_ORDER__) && defined(__ORDER_BIG_ENDIAN__) && \
    __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define _PMAPI_BITFIELDS_MSB_FIRST 1
#else
#define _PMAPI_BITFIELDS_MSB_FIRST 0
#endif

/* ---------------------------- limits -------------------------------- */
#define MAX_COUNTERS 8
#define MIN_THRESH_VALUE 0
#define MAX_THRESH_VALUE 63
#define COUNT_NOTHING (-1)
#define THRESH_SHIFT_MODE 26

/* ------------------------ initialization filters -------------------- */
#define PM_VERIFIED 1
#define PM_UNVERIFIED 2
#define PM_CAVEAT 4
#define PM_GET_GROUPS 8
#define PM_MAX_FILTER 4

/* ---------------------------- processor types ----------------------- */
#define PM_CURRENT (-1)
#define PM_PowerPC604 0
#define PM_PowerPC604e 1
#define PM_RS64_II 2
#define PM_POWER3 3
#define PM_RS64_III 4
#define PM_POWER3_II 5
#define PM_POWER4 6
#define PM_MPC7450 7
#define PM_POWER4_II 8
#define PM_POWER5 9
#define PM_PowerPC970 10
#define PM_POWER5_II 11
#define PM_POWER6 12
#define PM_PowerPC970MP 13
#define PM_POWERCOMPAT 14
#define PM_POWER7 15
#define PM_POWER8 16
#define PM_POWER9 17
#define PM_POWER10 18
/* The Linux host processor: whatever libpfm4 detects on this machine. */
#define PM_LINUX_HOST 19
#define PM_MAXPROCTYPE PM_LINUX_HOST

/* ------------------------- mode-word constants ---------------------- */
#ifndef PM_PROCTREE
#define PM_PROCTREE 1
#endif
#ifndef PM_COUNT
#define PM_COUNT 2
#endif
#ifndef PM_USER
#define PM_USER 4
#endif
#ifndef PM_KERNEL
#define PM_KERNEL 8
#endif
#ifndef PM_PROCESS
#define PM_PROCESS 16
#endif
#ifndef PM_IS_GROUP
#define PM_IS_GROUP 32
#endif
#ifndef PM_NO_INHERIT
#define PM_NO_INHERIT (1 << 19)
#endif

/* ------------------------------ typedefs ---------------------------- */
/* Linux has no tid_t, ptid_t or cid_t; define them unless a platform or an
 * earlier compatibility header already did. */
#if !defined(_PMAPI_TID_T) && !defined(__tid_t_defined) && !defined(_TID_T)
#define _PMAPI_TID_T
typedef pid_t tid_t;
#endif
#if !defined(_PMAPI_PTID_T) && !defined(_PTID_T)
#define _PMAPI_PTID_T
typedef unsigned int ptid_t;
#endif
#if !defined(_PMAPI_CID_T) && !defined(_CID_T)
#define _PMAPI_CID_T
typedef unsigned short cid_t;
#endif

typedef unsigned long long pm_wp_handle_t;
#define PM_INVALID_WP_HANDLE ((pm_wp_handle_t)-1)
#ifndef MAXWPARNAMELEN
#define MAXWPARNAMELEN 64
#endif

/* ------------------------- timebase (AIX libc) ---------------------- */
#if !defined(_PMAPI_TIMEBASE) && !defined(TIMEBASE_SZ)
#define _PMAPI_TIMEBASE
typedef struct timebasestruct {
  int flag;             /* RTC_POWER: sec/nsec; RTC_POWER_PC: raw ticks */
  unsigned int tb_high; /* seconds, or the upper 32 bits of the ticks */
  unsigned int tb_low;  /* nanoseconds, or the lower 32 bits */
} timebasestruct_t;
#define TIMEBASE_SZ (sizeof(struct timebasestruct))
#endif
#ifndef RTC_POWER
#define RTC_POWER 1
#endif
#ifndef RTC_POWER_PC
#define RTC_POWER_PC 2
#endif

/* Ticks are nanoseconds of CLOCK_MONOTONIC; the flag is RTC_POWER_PC. */
int read_real_time(timebasestruct_t *t, size_t size);
int read_wall_time(timebasestruct_t *t, size_t size);
int mread_real_time(timebasestruct_t *t, size_t size);
/* RTC_POWER_PC -> RTC_POWER (tb_high = s, tb_low = ns); -1 on unknown flag. */
int time_base_to_time(timebasestruct_t *t, size_t size);

/* ----------------------------- pm_mode_t ---------------------------- */
typedef union {
  int w;
  struct {
#if _PMAPI_BITFIELDS_MSB_FIRST
    unsigned threshold : 6;
    unsigned thresh_res : 1;
    unsigned runlatch : 1;
    unsigned hypervisor : 1;
    unsigned thresh_hres : 1;
    unsigned nointerrupt : 1;
    unsigned wpar_all : 1;
    unsigned no_inherit : 1;
    unsigned spare : 13;
    unsigned is_group : 1;
    unsigned process : 1;
    unsigned kernel : 1;
    unsigned user : 1;
    unsigned count : 1;
    unsigned proctree : 1;
#else
    unsigned proctree : 1;    /* system-wide: only the caller's process tree */
    unsigned count : 1;       /* counting on at set time / currently counting */
    unsigned user : 1;        /* count in user mode */
    unsigned kernel : 1;      /* count in kernel mode */
    unsigned process : 1;     /* group calls: process-level counting group */
    unsigned is_group : 1;    /* events[0] is an event-group id */
    unsigned spare : 13;
    unsigned no_inherit : 1;  /* new threads do not inherit the context */
    unsigned wpar_all : 1;
    unsigned nointerrupt : 1; /* no Linux equivalent: ignored */
    unsigned thresh_hres : 1;
    unsigned hypervisor : 1;  /* count in hypervisor mode */
    unsigned runlatch : 1;    /* exclude the idle loop */
    unsigned thresh_res : 1;
    unsigned threshold : 6;   /* only 0 is supported on Linux */
#endif
  } b;
} pm_mode_t;

/* ----------------------------- pm_prog_t ---------------------------- */
typedef struct {
  pm_mode_t mode;
  int events[MAX_COUNTERS]; /* event id per counter, or COUNT_NOTHING */
  long reserved;
} pm_prog_t;

/* ---------------------------- pm_ginfo_t ---------------------------- */
typedef struct {
  int members; /* threads that have belonged to the group, dead included */
  union {
    int w;
    struct {
#if _PMAPI_BITFIELDS_MSB_FIRST
      unsigned spare : 29;
      unsigned direct : 1;
      unsigned process : 1;
      unsigned consistent : 1;
#else
      unsigned consistent : 1; /* group data equals the sum of its members */
      unsigned process : 1;    /* process-level group */
      unsigned direct : 1;
      unsigned spare : 29;
#endif
    } b;
  } flags;
} pm_ginfo_t;
typedef pm_ginfo_t pm_groupinfo_t;

/* ----------------------------- pm_data_t ---------------------------- */
typedef struct {
  pm_ginfo_t ginfo;
  long long accu[MAX_COUNTERS]; /* indexed by counter number */
  long reserved;
} pm_data_t;

typedef struct {
  timebasestruct_t accu_timebase; /* time the events were counted */
  timebasestruct_t accu_purr;     /* Linux: same as accu_timebase */
  timebasestruct_t accu_spurr;    /* Linux: same as accu_timebase */
} pm_accu_time_t;

/* --------------------------- event descriptions --------------------- */
typedef struct {
  int event_id;   /* its index in the list (docs/porting.md) */
  char status;    /* 'v' verified, 'u' unverified, 'c' caveat */
  char threshold; /* 'n' on Linux: no event is thresholdable */
  char *short_name;
  char *long_name;
  char *description;
} pm_events_t;

typedef union {
  int w;
  struct {
#if _PMAPI_BITFIELDS_MSB_FIRST
    unsigned unverified : 1;
    unsigned verified : 1;
    unsigned caveat : 1;
    unsigned broken : 1;
    unsigned spare1 : 12;
    unsigned group_only : 1;
    unsigned threshold : 1;
    unsigned shared : 1;
    unsigned support_mode : 1;
    unsigned overflow : 1;
    unsigned marked : 1;
    unsigned sharedchip : 1;
    unsigned spare2 : 9;
#else
    unsigned spare2 : 9;
    unsigned sharedchip : 1;
    unsigned marked : 1;
    unsigned overflow : 1;
    unsigned support_mode : 1;
    unsigned shared : 1;
    unsigned threshold : 1;
    unsigned group_only : 1;
    unsigned spare1 : 12;
    unsigned broken : 1;
    unsigned caveat : 1;
    unsigned verified : 1;
    unsigned unverified : 1;
#endif
  } b;
} pm_status_t;

typedef struct {
  int event_id; /* its index in the list (docs/porting.md) */
  pm_status_t status;
  char *short_name;
  char *long_name;
  char *description;
  long reserved;
} pm_events2_t;

/* -------------------------- processor information ------------------- */
typedef struct {
  int maxpmcs;
  int *maxevents;            /* [maxpmcs] */
  pm_events_t **list_events; /* [maxpmcs][maxevents[i]] */
  int thresholdmult;
  char *proc_name;
  int hthresholdmult;
} pm_info_t;

typedef union {
  int w;
  struct {
#if _PMAPI_BITFIELDS_MSB_FIRST
    unsigned spare : 27;
    unsigned compatibility : 1;
    unsigned spurr : 1;
    unsigned purr : 1;
    unsigned runlatch : 1;
    unsigned hypervisor : 1;
#else
    unsigned hypervisor : 1;
    unsigned runlatch : 1;
    unsigned purr : 1;
    unsigned spurr : 1;
    unsigned compatibility : 1;
    unsigned spare : 27;
#endif
  } b;
} pm_feature_t;

typedef struct {
  int maxpmcs;
  int *maxevents;
  pm_events2_t **list_events;
  int thresholdmult;
  int hthresholdmult;
  int Hthresholdmult;
  int reserved;
  char *proc_name;
  pm_feature_t proc_feature;
  int reserved2;
} pm_info2_t;

/* ------------------------------ event groups ------------------------ */
typedef struct {
  int group_id; /* its index in event_groups (docs/porting.md) */
  int *events;  /* MAX_COUNTERS event ids; free counters name a filler */
  char *short_name;
  char *long_name;
  char *description;
} pm_groups_t;

typedef struct {
  int maxgroups;
  pm_groups_t *event_groups;
} pm_groups_info_t;

/* ---------------------- multiplexing (_mx) and multi-mode (_mm) ------ */
typedef int pm_events_prog_t[MAX_COUNTERS];
typedef unsigned int pm_mmcrs_prog_t[MAX_COUNTERS];

typedef struct {
  pm_mode_t mode;
  int slice_duration; /* milliseconds */
  int nb_events_prog;
  pm_events_prog_t *events_set;
} pm_prog_mx_t;

typedef struct {
  timebasestruct_t accu_time;
  timebasestruct_t accu_purr;
  timebasestruct_t accu_spurr;
  long long accu_data[MAX_COUNTERS];
} pm_accu_mx_t;

typedef struct {
  pm_ginfo_t ginfo;
  int nb_accu_mx;
  int nb_mx_round;
  pm_accu_mx_t *accu_set; /* allocated by the library; the caller frees */
} pm_data_mx_t;

typedef struct {
  int slice_duration;
  int nb_set_prog;
  pm_prog_t *prog_set;
} pm_prog_mm_t;

/* --------------------------------- WPAR ----------------------------- */
typedef struct {
  cid_t cid;
  char name[MAXWPARNAMELEN + 1];
  pm_wp_handle_t hwpar;
} pm_wpar_ctx_info_t;

typedef unsigned int pm_bhrb_ifm_t;

/* ---------------------------------------------------------------------- */
/* Error codes: 0 is success, every failure a positive code.  AIX publishes */
/* no numeric table; this one is libpmapi's own and stable (docs/errors.md).*/
/* "Context exists" (59) and "not counting" (85) keep the values AIX 7     */
/* clients test for.                                                       */
/* ---------------------------------------------------------------------- */
enum {
  Pmapi_NoInit = 1,               /* pm_initialize/pm_init not called */
  Pmapi_NoSetProg = 2,            /* no program set for this context */
  Pmapi_InvalidArg = 3,           /* NULL pointer or nonsense argument */
  Pmapi_InvalidFilter = 4,        /* filter has unknown bits */
  Pmapi_InvalidProcType = 5,      /* proctype unknown or without tables */
  Pmapi_InvalidEvent = 6,         /* event id not in the initialized filter */
  Pmapi_InvalidGroup = 7,         /* event-group id unknown */
  Pmapi_NoEvents = 8,             /* program counts nothing */
  Pmapi_Threshold = 9,            /* non-zero threshold: unsupported */
  Pmapi_NoDomain = 10,            /* neither user nor kernel mode selected */
  Pmapi_InvalidCpu = 11,          /* cpuid/lcpuid out of range or offline */
  Pmapi_CpuNotCounted = 12,       /* CPU not counted since set_program */
  Pmapi_SysThreadConflict = 14,   /* system-wide and thread contexts mix */
  Pmapi_Permission = 15,          /* the kernel refused: privilege */
  Pmapi_NoHardware = 16,          /* event not supported by this kernel/PMU */
  Pmapi_TooManyFiles = 17,        /* out of file descriptors */
  Pmapi_Malloc_Err = 18,          /* out of memory */
  Pmapi_NotSchedulable = 19,      /* the kernel could not schedule the group */
  Pmapi_Multiplexed = 20,         /* events were not counted all the time */
  Pmapi_NoSuchThread = 21,        /* target process or thread not found */
  Pmapi_Unsupported = 22,         /* entry point not supported on Linux */
  Pmapi_NotSystemWide = 23,       /* per-CPU read of a process-tree context */
  Pmapi_GroupMember = 24,         /* thread is in a counting group */
  Pmapi_KernelError = 25,         /* other kernel failure (errno kept) */
  Pmapi_BadCatalog = 26,          /* an events/ or groups/ table is invalid */
  Pmapi_Busy = 27,                /* the kernel says the counters are busy */
  Pmapi_Interrupted = 28,         /* interrupted system call */
  Pmapi_ShortRead = 29,           /* the kernel returned a truncated read */
  Pmapi_ProgExists = 59,          /* context already programmed */
  Pmapi_NotCounting = 85,         /* stop while not counting */
  /* AIX names for the EBB/BHRB family; all map to "unsupported" here. */
  Pmapi_Unsupported_EBBThreadMode = 90,
  Pmapi_Invalid_EBB_handler_addr = 91,
  Pmapi_Invalid_EBB_data_addr = 92,
  Pmapi_Invalid_EBB_Config = 93,
  Pmapi_EBB_Already_Exists = 94,
  Pmapi_EBB_NotSet = 95
};

/* --------------------------- utilities ------------------------------ */
double pm_cycles(void);
void pm_error(const char *where, int error);
char *pm_strerror(const char *where, int error);
/* pm_init is called with 2 (AIX <= 5.1), 3 or 4 arguments:
 *   pm_init(filter, pminfo)                      no groups (PM_GET_GROUPS ignored)
 *   pm_init(filter, pminfo, pmgroups)            groups when PM_GET_GROUPS
 *   pm_init(filter, pminfo, pmgroups, proctype)  as pm_initialize's proctype
 * The macro below sends each arity to its own function, so no call reads an
 * argument that was not passed. The variadic symbol pm_init stays for dlsym
 * users and declarations of their own: it reads a third argument only when
 * PM_GET_GROUPS is in filter (docs/porting.md). Define PMAPI_NO_PM_INIT_MACRO
 * to get the plain declaration only. */
int pm_init(int filter, pm_info_t *pminfo, ...);
int pm_init_args2(int filter, pm_info_t *pminfo);
int pm_init_args3(int filter, pm_info_t *pminfo, pm_groups_info_t *pmgroups);
int pm_init_args4(int filter, pm_info_t *pminfo, pm_groups_info_t *pmgroups,
                  int proctype);
#if !defined(PMAPI_NO_PM_INIT_MACRO) &&                                        \
    (defined(__GNUC__) || defined(__clang__) ||                                \
     (defined(__STDC_VERSION__) && __STDC_VERSION__ >= 199901L) ||             \
     (defined(__cplusplus) && __cplusplus >= 201103L))
#define _PMAPI_PM_INIT_BY_ARITY(_1, _2, _3, _4, name, ...) name
#define pm_init(...)                                                           \
  _PMAPI_PM_INIT_BY_ARITY(__VA_ARGS__, pm_init_args4, pm_init_args3,           \
                          pm_init_args2, pm_init_needs_2_to_4_arguments)       \
  (__VA_ARGS__)
#endif
int pm_initialize(int filter, pm_info2_t *pminfo, pm_groups_info_t *pmgroups,
                  int proctype);
int pm_get_procindex(void);

/* -------------------------- system-wide ----------------------------- */
int pm_set_program(pm_prog_t *prog);
int pm_set_program_mx(pm_prog_mx_t *prog);
int pm_set_program_mm(pm_prog_mm_t *prog);
int pm_get_program(pm_prog_t *prog);
int pm_get_program_mx(pm_prog_mx_t *prog);
int pm_get_program_mm(pm_prog_mm_t *prog);
int pm_delete_program(void);
int pm_start(void);
int pm_tstart(timebasestruct_t *time);
int pm_stop(void);
int pm_tstop(timebasestruct_t *time);
int pm_reset_data(void);
int pm_get_data(pm_data_t *data);
int pm_get_tdata(pm_data_t *data, timebasestruct_t *time);
int pm_get_Tdata(pm_data_t *data, pm_accu_time_t *times);
int pm_get_data_mx(pm_data_mx_t *data);
int pm_get_tdata_mx(pm_data_mx_t *data, timebasestruct_t *time);
int pm_get_data_cpu(int cpuid, pm_data_t *data);
int pm_get_tdata_cpu(int cpuid, pm_data_t *data, timebasestruct_t *time);
int pm_get_Tdata_cpu(int cpuid, pm_data_t *data, pm_accu_time_t *times);
int pm_get_data_lcpu(int lcpuid, pm_data_t *data);
int pm_get_tdata_lcpu(int lcpuid, pm_data_t *data, timebasestruct_t *time);
int pm_get_Tdata_lcpu(int lcpuid, pm_data_t *data, pm_accu_time_t *times);
int pm_get_data_cpu_mx(int cpuid, pm_data_mx_t *data);
int pm_get_tdata_cpu_mx(int cpuid, pm_data_mx_t *data, timebasestruct_t *time);
int pm_get_data_lcpu_mx(int lcpuid, pm_data_mx_t *data);
int pm_get_tdata_lcpu_mx(int lcpuid, pm_data_mx_t *data,
                         timebasestruct_t *time);

/* ------------------------------ WPAR -------------------------------- */
int pm_set_program_wp(cid_t cid, pm_prog_t *prog);
int pm_set_program_wp_mm(cid_t cid, pm_prog_mm_t *prog);
int pm_get_program_wp(cid_t cid, pm_prog_t *prog);
int pm_get_program_wp_mm(cid_t cid, pm_prog_mm_t *prog);
int pm_delete_program_wp(cid_t cid);
int pm_start_wp(cid_t cid);
int pm_tstart_wp(cid_t cid, timebasestruct_t *time);
int pm_stop_wp(cid_t cid);
int pm_tstop_wp(cid_t cid, timebasestruct_t *time);
int pm_reset_data_wp(cid_t cid);
int pm_get_data_wp(pm_wp_handle_t handle, pm_data_t *data);
int pm_get_tdata_wp(pm_wp_handle_t handle, pm_data_t *data,
                    timebasestruct_t *time);
int pm_get_Tdata_wp(pm_wp_handle_t handle, pm_data_t *data,
                    pm_accu_time_t *times);
int pm_get_data_wp_mx(pm_wp_handle_t handle, pm_data_mx_t *data);
int pm_get_tdata_wp_mx(pm_wp_handle_t handle, pm_data_mx_t *data,
                       timebasestruct_t *time);
int pm_get_data_lcpu_wp(pm_wp_handle_t handle, int lcpuid, pm_data_t *data);
int pm_get_tdata_lcpu_wp(pm_wp_handle_t handle, int lcpuid, pm_data_t *data,
                         timebasestruct_t *time);
int pm_get_Tdata_lcpu_wp(pm_wp_handle_t handle, int lcpuid, pm_data_t *data,
                         pm_accu_time_t *times);
int pm_get_data_lcpu_wp_mx(pm_wp_handle_t handle, int lcpuid,
                           pm_data_mx_t *data);
int pm_get_tdata_lcpu_wp_mx(pm_wp_handle_t handle, int lcpuid,
                            pm_data_mx_t *data, timebasestruct_t *time);
int pm_get_wplist(const char *name, pm_wpar_ctx_info_t *wp_list, int *size);

/* ------------------- first-party thread (_mythread) ------------------ */
int pm_set_program_mythread(pm_prog_t *prog);
int pm_set_program_mythread_mx(pm_prog_mx_t *prog);
int pm_set_program_mythread_mm(pm_prog_mm_t *prog);
int pm_get_program_mythread(pm_prog_t *prog);
int pm_get_program_mythread_mx(pm_prog_mx_t *prog);
int pm_get_program_mythread_mm(pm_prog_mm_t *prog);
int pm_delete_program_mythread(void);
int pm_start_mythread(void);
int pm_tstart_mythread(timebasestruct_t *time);
int pm_stop_mythread(void);
int pm_tstop_mythread(timebasestruct_t *time);
int pm_reset_data_mythread(void);
int pm_get_data_mythread(pm_data_t *data);
int pm_get_tdata_mythread(pm_data_t *data, timebasestruct_t *time);
int pm_get_Tdata_mythread(pm_data_t *data, pm_accu_time_t *times);
int pm_get_data_mythread_mx(pm_data_mx_t *data);
int pm_get_tdata_mythread_mx(pm_data_mx_t *data, timebasestruct_t *time);

/* -------------------- third-party thread (_thread) ------------------- */
int pm_set_program_thread(pid_t pid, tid_t tid, pm_prog_t *prog);
int pm_set_program_thread_mx(pid_t pid, tid_t tid, pm_prog_mx_t *prog);
int pm_set_program_thread_mm(pid_t pid, tid_t tid, pm_prog_mm_t *prog);
int pm_get_program_thread(pid_t pid, tid_t tid, pm_prog_t *prog);
int pm_get_program_thread_mx(pid_t pid, tid_t tid, pm_prog_mx_t *prog);
int pm_get_program_thread_mm(pid_t pid, tid_t tid, pm_prog_mm_t *prog);
int pm_delete_program_thread(pid_t pid, tid_t tid);
int pm_start_thread(pid_t pid, tid_t tid);
int pm_tstart_thread(pid_t pid, tid_t tid, timebasestruct_t *time);
int pm_stop_thread(pid_t pid, tid_t tid);
int pm_tstop_thread(pid_t pid, tid_t tid, timebasestruct_t *time);
int pm_reset_data_thread(pid_t pid, tid_t tid);
int pm_get_data_thread(pid_t pid, tid_t tid, pm_data_t *data);
int pm_get_tdata_thread(pid_t pid, tid_t tid, pm_data_t *data,
                        timebasestruct_t *time);
int pm_get_Tdata_thread(pid_t pid, tid_t tid, pm_data_t *data,
                        pm_accu_time_t *times);
int pm_get_data_thread_mx(pid_t pid, tid_t tid, pm_data_mx_t *data);
int pm_get_tdata_thread_mx(pid_t pid, tid_t tid, pm_data_mx_t *data,
                           timebasestruct_t *time);

/* ------------------- third-party pthread (_pthread) ------------------ */
int pm_set_program_pthread(pid_t pid, tid_t tid, ptid_t ptid, pm_prog_t *prog);
int pm_set_program_pthread_mx(pid_t pid, tid_t tid, ptid_t ptid,
                              pm_prog_mx_t *prog);
int pm_set_program_pthread_mm(pid_t pid, tid_t tid, ptid_t ptid,
                              pm_prog_mm_t *prog);
int pm_get_program_pthread(pid_t pid, tid_t tid, ptid_t ptid, pm_prog_t *prog);
int pm_get_program_pthread_mx(pid_t pid, tid_t tid, ptid_t ptid,
                              pm_prog_mx_t *prog);
int pm_get_program_pthread_mm(pid_t pid, tid_t tid, ptid_t ptid,
                              pm_prog_mm_t *prog);
int pm_delete_program_pthread(pid_t pid, tid_t tid, ptid_t ptid);
int pm_start_pthread(pid_t pid, tid_t tid, ptid_t ptid);
int pm_tstart_pthread(pid_t pid, tid_t tid, ptid_t ptid,
                      timebasestruct_t *time);
int pm_stop_pthread(pid_t pid, tid_t tid, ptid_t ptid);
int pm_tstop_pthread(pid_t pid, tid_t tid, ptid_t ptid,
                     timebasestruct_t *time);
int pm_reset_data_pthread(pid_t pid, tid_t tid, ptid_t ptid);
int pm_get_data_pthread(pid_t pid, tid_t tid, ptid_t ptid, pm_data_t *data);
int pm_get_tdata_pthread(pid_t pid, tid_t tid, ptid_t ptid, pm_data_t *data,
                         timebasestruct_t *time);
int pm_get_Tdata_pthread(pid_t pid, tid_t tid, ptid_t ptid, pm_data_t *data,
                         pm_accu_time_t *times);
int pm_get_data_pthread_mx(pid_t pid, tid_t tid, ptid_t ptid,
                           pm_data_mx_t *data);
int pm_get_tdata_pthread_mx(pid_t pid, tid_t tid, ptid_t ptid,
                            pm_data_mx_t *data, timebasestruct_t *time);

/* ------------------ first-party counting group (_mygroup) ------------ */
int pm_set_program_mygroup(pm_prog_t *prog);
int pm_set_program_mygroup_mx(pm_prog_mx_t *prog);
int pm_set_program_mygroup_mm(pm_prog_mm_t *prog);
int pm_get_program_mygroup(pm_prog_t *prog);
int pm_get_program_mygroup_mx(pm_prog_mx_t *prog);
int pm_get_program_mygroup_mm(pm_prog_mm_t *prog);
int pm_delete_program_mygroup(void);
int pm_start_mygroup(void);
int pm_tstart_mygroup(timebasestruct_t *time);
int pm_stop_mygroup(void);
int pm_tstop_mygroup(timebasestruct_t *time);
int pm_reset_data_mygroup(void);
int pm_get_data_mygroup(pm_data_t *data);
int pm_get_tdata_mygroup(pm_data_t *data, timebasestruct_t *time);
int pm_get_Tdata_mygroup(pm_data_t *data, pm_accu_time_t *times);
int pm_get_data_mygroup_mx(pm_data_mx_t *data);
int pm_get_tdata_mygroup_mx(pm_data_mx_t *data, timebasestruct_t *time);

/* ------------------- third-party counting group (_group) ------------- */
int pm_set_program_group(pid_t pid, tid_t tid, pm_prog_t *prog);
int pm_set_program_group_mx(pid_t pid, tid_t tid, pm_prog_mx_t *prog);
int pm_set_program_group_mm(pid_t pid, tid_t tid, pm_prog_mm_t *prog);
int pm_get_program_group(pid_t pid, tid_t tid, pm_prog_t *prog);
int pm_get_program_group_mx(pid_t pid, tid_t tid, pm_prog_mx_t *prog);
int pm_get_program_group_mm(pid_t pid, tid_t tid, pm_prog_mm_t *prog);
int pm_delete_program_group(pid_t pid, tid_t tid);
int pm_start_group(pid_t pid, tid_t tid);
int pm_tstart_group(pid_t pid, tid_t tid, timebasestruct_t *time);
int pm_stop_group(pid_t pid, tid_t tid);
int pm_tstop_group(pid_t pid, tid_t tid, timebasestruct_t *time);
int pm_reset_data_group(pid_t pid, tid_t tid);
int pm_get_data_group(pid_t pid, tid_t tid, pm_data_t *data);
int pm_get_tdata_group(pid_t pid, tid_t tid, pm_data_t *data,
                       timebasestruct_t *time);
int pm_get_Tdata_group(pid_t pid, tid_t tid, pm_data_t *data,
                       pm_accu_time_t *times);
int pm_get_data_group_mx(pid_t pid, tid_t tid, pm_data_mx_t *data);
int pm_get_tdata_group_mx(pid_t pid, tid_t tid, pm_data_mx_t *data,
                          timebasestruct_t *time);

/* --------------- third-party pthread counting group (_pgroup) -------- */
int pm_set_program_pgroup(pid_t pid, tid_t tid, ptid_t ptid, pm_prog_t *prog);
int pm_set_program_pgroup_mx(pid_t pid, tid_t tid, ptid_t ptid,
                             pm_prog_mx_t *prog);
int pm_set_program_pgroup_mm(pid_t pid, tid_t tid, ptid_t ptid,
                             pm_prog_mm_t *prog);
int pm_get_program_pgroup(pid_t pid, tid_t tid, ptid_t ptid, pm_prog_t *prog);
int pm_get_program_pgroup_mx(pid_t pid, tid_t tid, ptid_t ptid,
                             pm_prog_mx_t *prog);
int pm_get_program_pgroup_mm(pid_t pid, tid_t tid, ptid_t ptid,
                             pm_prog_mm_t *prog);
int pm_delete_program_pgroup(pid_t pid, tid_t tid, ptid_t ptid);
int pm_start_pgroup(pid_t pid, tid_t tid, ptid_t ptid);
int pm_tstart_pgroup(pid_t pid, tid_t tid, ptid_t ptid,
                     timebasestruct_t *time);
int pm_stop_pgroup(pid_t pid, tid_t tid, ptid_t ptid);
int pm_tstop_pgroup(pid_t pid, tid_t tid, ptid_t ptid, timebasestruct_t *time);
int pm_reset_data_pgroup(pid_t pid, tid_t tid, ptid_t ptid);
int pm_get_data_pgroup(pid_t pid, tid_t tid, ptid_t ptid, pm_data_t *data);
int pm_get_tdata_pgroup(pid_t pid, tid_t tid, ptid_t ptid, pm_data_t *data,
                        timebasestruct_t *time);
int pm_get_Tdata_pgroup(pid_t pid, tid_t tid, ptid_t ptid, pm_data_t *data,
                        pm_accu_time_t *times);
int pm_get_data_pgroup_mx(pid_t pid, tid_t tid, ptid_t ptid,
                          pm_data_mx_t *data);
int pm_get_tdata_pgroup_mx(pid_t pid, tid_t tid, ptid_t ptid,
                           pm_data_mx_t *data, timebasestruct_t *time);

/* ------------- POWER8+ EBB/BHRB, counter frequency, raw registers ---- */
/* Not supported on Linux: they return Pmapi_Unsupported (pmc_ and mmcr_
 * reads and writes return -1, as on AIX). */
int pm_set_ebb_handler(void *handler_address, void *data_area);
int pm_clear_ebb_handler(void **old_handler, void **old_data_area);
int pm_enable_bhrb(pm_bhrb_ifm_t ifm_mode);
int pm_disable_bhrb(void);
int pm_set_counter_frequency_mythread(unsigned int counter_freq[MAX_COUNTERS]);
int pm_set_counter_frequency_thread(pid_t pid, tid_t tid,
                                    unsigned int counter_freq[MAX_COUNTERS]);
int pm_set_counter_frequency_pthread(pid_t pid, tid_t tid, ptid_t ptid,
                                     unsigned int counter_freq[MAX_COUNTERS]);
int pmc_read_1to4(void *buf);
int pmc_read_5to6(void *buf);
int pmc_write(int spr_num, void *buf);
int mmcr_read(void *buf);
int mmcr_write(int spr_num, void *buf);

#ifdef __cplusplus
}
#endif

#endif /* _H_PMAPI */
