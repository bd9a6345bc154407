/* SPDX-License-Identifier: MIT */
/*
 * <sys/pmc.h> - NetBSD's machine-independent performance-counter interface,
 * pmc_control(2) and pmc_get_info(2), for Linux.
 *
 * Part of libpmapi's compatibility layers: the counting is done by libpmapi's
 * core over perf_event_open(2).  Link with -lpmc (`pkg-config --cflags --libs
 * pmc`).  Installed as <prefix>/include/libpmapi-compat/netbsd/sys/pmc.h, a
 * directory only `pkg-config --cflags pmc` adds, so it never shadows a system
 * header by accident.  Behaviour on Linux: docs/netbsd.md.
 */
#ifndef _LIBPMAPI_COMPAT_SYS_PMC_H_
#define _LIBPMAPI_COMPAT_SYS_PMC_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * NetBSD made these machine-dependent (<machine/types.h>); the same choice
 * per architecture keeps struct pmc_counter_cfg's layout what a NetBSD
 * program on that architecture expects.  Event ids are libpmapi catalog ids
 * (`pmc list` prints them).
 */
#if defined(__arm__) || defined(__aarch64__)
typedef unsigned long pmc_evid_t;
typedef unsigned long pmc_ctr_t;
#else
typedef int pmc_evid_t;
typedef uint64_t pmc_ctr_t;
#endif

struct pmc_counter_cfg {
  pmc_evid_t event_id;   /* event to count: a libpmapi catalog id */
  pmc_ctr_t reset_value; /* PMC_OP_PROFSTART: events between two overflows
                            (0: 2^32); ignored when only counting */
  uint32_t flags;        /* 0, or PMC_CFG_* below (a libpmapi extension) */
};

/* pmc_control operations (NetBSD's values). */
#define PMC_OP_START 1
#define PMC_OP_STOP 2
#define PMC_OP_CONFIGURE 3
#define PMC_OP_PROFSTART 4
#define PMC_OP_PROFSTOP 5

/* pmc_get_info requests (NetBSD's values). */
#define PMC_INFO_NCOUNTERS 1
#define PMC_INFO_CPUCTR_TYPE 2
#define PMC_INFO_COUNTER_VALUE 3
#define PMC_INFO_ACCUMULATED_COUNTER_VALUE 4

/*
 * libpmapi extension: NetBSD left `flags` unused and counted every privilege
 * level.  0 still means that; these bits (the values of i386 pmc(1)'s
 * PMC_SETUP_KERNEL/PMC_SETUP_USER) restrict the count.  Other bits: EINVAL.
 */
#define PMC_CFG_KERNEL 0x01
#define PMC_CFG_USER 0x02

/*
 * PMC_INFO_CPUCTR_TYPE answers (libpmapi's own codes; NetBSD's were per
 * processor, e.g. 0x10000 for the i80200 class).  ctr -1 gives the class;
 * a counter gives the kind of event configured on it, or
 * PMC_TYPE_LINUX_FREE; any other ctr gives -1.
 */
#define PMC_CLASS_LINUX_PERF 0x20000
#define PMC_TYPE_LINUX_FREE 0x20001       /* nothing configured: any event */
#define PMC_TYPE_LINUX_HARDWARE 0x20002   /* a processor (or sysfs) PMU event */
#define PMC_TYPE_LINUX_SOFTWARE 0x20003   /* a kernel software event */
#define PMC_TYPE_LINUX_TRACEPOINT 0x20004 /* a tracefs tracepoint */

/* PMC_INFO_NCOUNTERS: counters 0..7 (libpmapi's MAX_COUNTERS). */
#define PMC_LINUX_NCOUNTERS 8

/* Both return 0, or -1 with errno set (docs/netbsd.md lists which). */
int pmc_control(int ctr, int op, void *args);
int pmc_get_info(int ctr, int request, void *data);

#ifdef __cplusplus
}
#endif

#endif /* _LIBPMAPI_COMPAT_SYS_PMC_H_ */
