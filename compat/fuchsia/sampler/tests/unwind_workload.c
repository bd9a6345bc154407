/* SPDX-License-Identifier: MIT */
/* A known call chain in code built without frame pointers (-O2 -fomit-frame-pointer, with
 * .eh_frame): main -> outer -> middle -> leaf, where leaf spins. Only DWARF unwinding finds
 * leaf's callers; the frame-pointer chain cannot.
 *
 *   unwind_workload [ITERATIONS]        runs leaf ITERATIONS times (default 300000000), again
 *                                       until the loop has used 300 ms of CPU time
 *   unwind_workload wait ITERATIONS [LIBRARY]
 *                                     prints "ready", waits for SIGUSR1, then (for -p) loads
 *                                     LIBRARY if given (a mapping made after the attach) and runs
 * The CPU-time floor keeps the samples a test can expect the same whatever the compiler made of
 * leaf: gcc's loop takes ~350 ms for the default, clang's (the sanitizer builds) ~45 ms. */
#include <dlfcn.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "wait_for_signal.h"

/* noipa: no inlining, cloning or interprocedural shortcuts, so each function keeps its frame;
 * each caller uses the result after the call, so no call is a tail call. */
#if defined(__clang__)
/* clang has no noipa (the sanitizer builds use clang): noinline is its nearest. */
#define KEEP_FRAME __attribute__((noinline))
#else
#define KEEP_FRAME __attribute__((noipa))
#endif
KEEP_FRAME static uint64_t leaf(uint64_t n) {
  uint64_t x = n;
  for (uint64_t i = 0; i < n; ++i) x = x * 6364136223846793005u + 1442695040888963407u;
  return x;
}

KEEP_FRAME static uint64_t middle(uint64_t n) { return leaf(n) ^ (n << 1); }

KEEP_FRAME static uint64_t outer(uint64_t n) { return middle(n) + (n >> 3); }

int main(int argc, char** argv) {
  uint64_t n = 300000000u;
  if (argc > 2 && strcmp(argv[1], "wait") == 0) {
    say_ready_and_wait_for_usr1();
    n = strtoull(argv[2], NULL, 10);
    if (argc > 3 && !dlopen(argv[3], RTLD_NOW)) {
      fprintf(stderr, "unwind_workload: %s\n", dlerror());
      return 2;
    }
  } else if (argc > 1) {
    n = strtoull(argv[1], NULL, 10);
  }
  uint64_t x = 0;
  struct timespec start, now;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &start);
  /* A new argument each round: clang sees the chain is pure and would call it once. */
  uint64_t round = 0;
  do {
    x ^= outer(n + round++);
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  } while ((now.tv_sec - start.tv_sec) * 1000000000ll + (now.tv_nsec - start.tv_nsec) < 300000000);
  /* Printed so that nothing of the chain is dead code. */
  printf("%llu\n", (unsigned long long)(x & 1));
  return 0;
}
