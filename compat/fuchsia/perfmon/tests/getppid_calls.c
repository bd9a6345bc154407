/* SPDX-License-Identifier: MIT */
/* Makes exactly argv[1] getppid system calls, each through one instruction of one function, so
 * that a test knows every sample's PC: the address after that instruction, which it prints
 * (as 0x...) first when argv[2] is "--print-pc". libc cannot cache the calls. With
 * "--stop-at K" it stops itself (SIGSTOP) after K calls, so that a test can act mid-run. */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined(__x86_64__)
extern const char getppid_after[];
__attribute__((noinline)) static void call_getppid(void) {
  long result;
  __asm__ volatile(
      "syscall\n"
      ".globl getppid_after\n"
      "getppid_after:\n"
      : "=a"(result)
      : "a"((long)SYS_getppid)
      : "rcx", "r11", "memory");
  (void)result;
}
#else
static const char getppid_after[1];
__attribute__((noinline)) static void call_getppid(void) { syscall(SYS_getppid); }
#endif

int main(int argc, char **argv) {
  long n = argc > 1 ? strtol(argv[1], NULL, 10) : 0;
  if (argc > 2 && strcmp(argv[2], "--print-pc") == 0) {
    printf("%p\n", (const void *)getppid_after);
    fflush(stdout);
  }
  long stop_at = argc > 3 && strcmp(argv[2], "--stop-at") == 0 ? strtol(argv[3], NULL, 10) : -1;
  for (long i = 0; i < n; ++i) {
    if (i == stop_at) raise(SIGSTOP);
    call_getppid();
  }
  return 0;
}
