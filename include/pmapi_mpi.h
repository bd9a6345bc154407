/* SPDX-License-Identifier: MIT */
/*
 * libpmapi-mpi: per-rank counting of MPI jobs through the PMPI profiling interface
 * (docs/mpi.md). Linking -lpmapi-mpi (or LD_PRELOADing libpmapi-mpi.so) is enough to count
 * the whole run of every rank; these calls, optional, also count named phases.
 *
 *   pm_mpi_region_begin("solve");
 *   ...
 *   pm_mpi_region_end("solve");
 *
 * A region may be entered many times and regions may nest (each counts what happens between
 * its own begin and end). Both calls are cheap (one read of the rank's counters), safe from
 * any thread, and do nothing when the rank is not counting. They return 0, or -1 when the
 * name is NULL or empty, or an end has no matching begin.
 */
#ifndef _H_PMAPI_MPI
#define _H_PMAPI_MPI

#ifdef __cplusplus
extern "C" {
#endif

int pm_mpi_region_begin(const char *name);
int pm_mpi_region_end(const char *name);

#ifdef __cplusplus
}
#endif

#endif /* _H_PMAPI_MPI */
