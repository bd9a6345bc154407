/* SPDX-License-Identifier: MIT */
/*
 * What MPI_Init plus MPI_Finalize cost on this rank, in milliseconds, printed after
 * MPI_Finalize as "init_finalize_ms RANK VALUE". tests/mpi/bench_mpi.py runs it with and
 * without libpmapi-mpi preloaded: the difference is the library's cost at start and end
 * (programming the counters, the reduction, the banner).
 */
#include <mpi.h>
#include <stdio.h>
#include <time.h>

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

int main(int argc, char **argv) {
  int rank = 0;
  double before_init, after_init, before_finalize, after_finalize;
  before_init = now_ms();
  if (MPI_Init(&argc, &argv) != MPI_SUCCESS) return 1;
  after_init = now_ms();
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Barrier(MPI_COMM_WORLD);
  before_finalize = now_ms();
  MPI_Finalize();
  after_finalize = now_ms();
  printf("init_finalize_ms %d %.3f\n", rank,
         (after_init - before_init) + (after_finalize - before_finalize));
  return 0;
}
