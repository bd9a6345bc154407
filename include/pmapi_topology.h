/* SPDX-License-Identifier: MIT */
/* pmapi_topology.h: a libpmapi extension (not in AIX's pmapi) saying where each processor of
 * pm_get_data_cpu's numbering sits: its Linux CPU number, core, package (socket) and NUMA node,
 * as hwloc reports them (docs/topology.md). Include it after <pmapi.h>; link with -lpmapi.
 *
 * pm_get_data_cpu's `cpuid` is a dense index 0..n-1 over the online CPUs in hwloc's logical
 * order: the hardware threads of a core are neighbours, then the cores of a package, so that
 * cpuid 0 and 1 share a core on an SMT machine whatever the Linux numbering. While a
 * system-wide program that counts CPUs is set, these calls answer for its CPUs (those online
 * when it was set); otherwise for the CPUs online when the library first looked. */
#ifndef PMAPI_TOPOLOGY_H
#define PMAPI_TOPOLOGY_H

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pm_cpu_topology {
  int cpuid;     /* the dense index asked for: what pm_get_data_cpu takes */
  int lcpu;      /* Linux CPU number: what pm_get_data_lcpu and perf_event_open take */
  int core;      /* hwloc logical index of its core (0.. over the machine), -1 if unknown */
  int package;   /* hwloc logical index of its package (socket), -1 if unknown */
  int numa_node; /* Linux NUMA node number (as numactl names it), -1 if unknown */
} pm_cpu_topology_t;

/* Stores in *count how many CPUs pm_get_data_cpu numbers (0..*count-1). Returns 0, or
 * Pmapi_InvalidArg when count is NULL. */
int pm_get_cpu_count(int *count);

/* Fills *where for dense index `cpuid`. Returns 0, Pmapi_InvalidCpu when cpuid is out of
 * range, or Pmapi_InvalidArg when where is NULL. Core, package and node are -1 when hwloc could
 * not say (it failed, or the CPU came online after the library first looked). */
int pm_get_cpu_topology(int cpuid, pm_cpu_topology_t *where);

#ifdef __cplusplus
}
#endif

#endif /* PMAPI_TOPOLOGY_H */
