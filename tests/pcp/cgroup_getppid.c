/* SPDX-License-Identifier: MIT */
/* The workload of scripts/pcp-test: moves itself into a cgroup (its cgroup.procs file), then
 * calls getppid N times, so that the agent's count for that job is exactly N.
 *   cgroup_getppid CGROUP_PROCS_FILE N */
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: cgroup_getppid CGROUP_PROCS_FILE N\n");
    return 2;
  }
  FILE *procs = fopen(argv[1], "w");
  if (procs == NULL || fprintf(procs, "%d\n", (int)getpid()) < 0 || fclose(procs) != 0) {
    perror(argv[1]);
    return 1;
  }
  long n = strtol(argv[2], NULL, 10);
  /* The system call itself: a C library may answer getppid without entering the kernel. */
  for (long i = 0; i < n; ++i) syscall(SYS_getppid);
  return 0;
}
