/* SPDX-License-Identifier: MIT */
/* A library with one hot function, built twice from this file under two names (HOT_NAME:
 * alpha_hot in one, beta_hot in the other), the same size, so that the second, loaded where the
 * first was unloaded, lands at its address. run_hot(SECONDS) burns SECONDS of the thread's CPU
 * time in HOT_NAME. */
#include <time.h>

#ifndef HOT_NAME
#error "HOT_NAME names the hot function"
#endif

static double thread_cpu_seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

unsigned long hot_library_sink;

__attribute__((noinline)) void HOT_NAME(double seconds) {
  double end = thread_cpu_seconds() + seconds;
  unsigned long x = 1;
  while (thread_cpu_seconds() < end)
    for (int i = 0; i < 20000; ++i) {
      x = x * 6364136223846793005ul + 1442695040888963407ul;
      __asm__ volatile("" : "+r"(x));
    }
  __atomic_store_n(&hot_library_sink, x, __ATOMIC_RELAXED);
}

__attribute__((noinline)) void run_hot(double seconds) {
  HOT_NAME(seconds);
  __asm__ volatile("" ::: "memory"); /* no tail call: run_hot stays in the stack */
}
