/* SPDX-License-Identifier: MIT */
/*
 * The examples' workload in the guest: each getppid call an example makes through syscall()
 * (example_workload.h) runs the suite's loop PMU_EXAMPLE_LOOP times instead (1 if unset), so an
 * example that counts PM_INST_CMPL around C calls counts C times the loop's instructions, plus
 * what the calls around them cost: the same for every loop length.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/syscall.h>

#include "example_workload.h"
#include "loop.h"

static uint64_t iterations = 1;

/* Read before main: parsing a longer number inside the counted code would cost more. */
__attribute__((constructor)) static void read_iterations(void) {
  const char *value = getenv("PMU_EXAMPLE_LOOP");
  const uint64_t n = value ? strtoull(value, NULL, 10) : 0;
  if (n > 0) iterations = n;
}

long pmu_example_syscall(long number, ...) {
  if (number != SYS_getppid) {
    /* The examples make no other call through syscall(). */
    errno = ENOSYS;
    return -1;
  }
  pmu_loop(iterations);
  return 0;
}
