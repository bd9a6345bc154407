/* SPDX-License-Identifier: MIT */
/* pmcount -T's workload: getppid calls placed where no set switch can be.
 *
 *   mx_workload SLICE_MS N BUSY_MS
 *
 * libpmapi's rotator ends slices on multiples of the slice on CLOCK_MONOTONIC
 * (docs/counting.md, "Who switches"), and between the disable of one set and the enable of
 * the next nothing counts. So the N getppid calls are made in one burst in the middle of a
 * slice, half a slice away from any switch; then the process stays busy for BUSY_MS (a
 * thread's counters advance only while it runs), so that every set gets slices of its own.
 * Every set holding syscalls:sys_enter_getppid then sees a share, and the shares add up to
 * exactly N. */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

int main(int argc, char **argv) {
  if (argc != 4) return 2;
  const uint64_t slice = (uint64_t)atol(argv[1]) * 1000000u;
  const long n = atol(argv[2]);
  const uint64_t busy = (uint64_t)atol(argv[3]) * 1000000u;
  if (slice == 0 || n < 0) return 2;
  /* The next middle of a slice at least a quarter slice ahead (the counters are armed by
   * now: pmcount starts us after programming them). */
  uint64_t start = now_ns();
  uint64_t middle = (start / slice) * slice + slice / 2;
  while (middle < start + slice / 4) middle += slice;
  struct timespec until = {(time_t)(middle / 1000000000u), (long)(middle % 1000000000u)};
  while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until, NULL) != 0) {
  }
  for (long i = 0; i < n; ++i) syscall(SYS_getppid); /* never cached by libc */
  const uint64_t end = now_ns() + busy;
  volatile uint64_t spins = 0;
  while (now_ns() < end) ++spins;
  return 0;
}
