/* SPDX-License-Identifier: MIT */
/*
 * The MPI test workload: rank r makes 1000 * (r + 1) getppid calls, half from its main thread
 * and half from a helper thread it starts after MPI_Init, so a 4-rank job makes 10,000 with
 * min 1,000 on rank 0 and max 4,000 on rank 3.
 *
 *   getppid_ranks [regions]
 *
 * With "regions", 100 * (r + 1) of the main thread's calls happen inside the region "inner"
 * (entered twice). PMAPI_MPI_TEST_BAD_RANK=k gives rank k an event name that does not exist,
 * set before MPI_Init from the launcher's rank variable. With "abort", rank 1 calls MPI_Abort
 * once every rank has done its calls; with "kill", rank 1 kills itself (SIGKILL) then.
 */
#define _GNU_SOURCE
#include <mpi.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifdef WITH_REGIONS
#include <pmapi_mpi.h>
#endif

static void calls(long n) {
  long i;
  for (i = 0; i < n; ++i) syscall(SYS_getppid);
}

static void *helper(void *n) {
  calls(*(long *)n);
  return NULL;
}

int main(int argc, char **argv) {
  const char *bad = getenv("PMAPI_MPI_TEST_BAD_RANK");
  const char *launcher_rank = getenv("OMPI_COMM_WORLD_RANK");
  int rank = 0, provided = 0;
  long half, inside = 0;
  pthread_t thread;

  if (bad && launcher_rank && strcmp(bad, launcher_rank) == 0) {
    setenv("PMAPI_MPI_EVENTS", "syscalls:sys_enter_no_such_call", 1);
  }
  if (MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) return 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  half = 500L * (rank + 1);
  if (argc > 1 && strcmp(argv[1], "regions") == 0) inside = 100L * (rank + 1);

  if (pthread_create(&thread, NULL, helper, &half) != 0) return 1;
  pthread_join(thread, NULL);
#ifdef WITH_REGIONS
  if (inside) {
    /* Twice, half each time: a region sums its entries. */
    pm_mpi_region_begin("inner");
    calls(inside / 2);
    pm_mpi_region_end("inner");
    pm_mpi_region_begin("inner");
    calls(inside - inside / 2);
    pm_mpi_region_end("inner");
  }
#endif
  calls(half - inside);
  MPI_Barrier(MPI_COMM_WORLD);
  if (argc > 1 && strcmp(argv[1], "abort") == 0 && rank == 1) MPI_Abort(MPI_COMM_WORLD, 3);
  if (argc > 1 && strcmp(argv[1], "kill") == 0 && rank == 1) raise(SIGKILL);
  return MPI_Finalize() == MPI_SUCCESS ? 0 : 1;
}
