/* SPDX-License-Identifier: MIT */
/* Makes exactly argv[1] getppid system calls (through syscall(2), which libc
 * cannot cache), so a test of the pmc tool knows what it must print. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv) {
  long n = argc > 1 ? strtol(argv[1], NULL, 10) : 0;
  for (long i = 0; i < n; ++i) syscall(SYS_getppid);
  return 0;
}
