/* SPDX-License-Identifier: MIT */
/*
 * libhpm's derived metrics: sections that make exact numbers of getppid and
 * getpgid calls, for a group whose formulas read both (run_metrics.py writes
 * the group table and checks the report).
 *   section 1 "outer":  1,000 getppid and 50 getpgid of its own, around
 *   section 2 "inner":  entered 3 times, 100 getppid each, no getpgid;
 *   section 3 "empty":  no call at all.
 */
#define _GNU_SOURCE
#include <libhpm.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

static void calls(long number, int n) {
  int i;
  for (i = 0; i < n; ++i) syscall(number, 0);
}

int main(void) {
  int i;
  hpmInit(0, "hpm_metrics");
  hpmStart(1, "outer");
  calls(SYS_getppid, 500);
  calls(SYS_getpgid, 50);
  for (i = 0; i < 3; ++i) {
    hpmStart(2, "inner");
    calls(SYS_getppid, 100);
    hpmStop(2);
  }
  calls(SYS_getppid, 500);
  hpmStop(1);
  hpmStart(3, "empty");
  hpmStop(3);
  hpmTerminate(0);
  printf("hpm_metrics: finished\n");
  return 0;
}
