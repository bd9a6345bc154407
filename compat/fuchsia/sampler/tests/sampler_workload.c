/* SPDX-License-Identifier: MIT */
/* A program with known hot functions, for the sampler's and pmsample's tests. Built with
 * frame pointers and the hot functions never inlined, so each sample's stack shows them.
 *   sampler_workload hot SECONDS       the main thread burns SECONDS of CPU in hot_loop
 *   sampler_workload threads SECONDS   two new threads burn SECONDS each, in hot_loop_a / _b
 *   sampler_workload wait SECONDS      prints "ready", waits for SIGUSR1, then as "threads"
 *   sampler_workload work MILLIONS     a fixed amount of work (millions of steps) in hot_work;
 *                                      prints the CPU time it took, in ns (benchmarks)
 *   sampler_workload shares SECONDS    main -> shares_caller -> hot_loop_a for 3/4 of SECONDS of
 *                                      CPU, then hot_loop_b for 1/4 (a flame graph's 3:1)
 *   sampler_workload badframe SECONDS  SECONDS of CPU in bad_frame_loop, which points the frame
 *                                      register at data whose "return address" is no code: what
 *                                      a frame-pointer walk meets in code built without them */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "wait_for_signal.h"

static double thread_cpu_seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static unsigned long sink; /* written by both threads: atomically */

#define HOT_FUNCTION(name)                                                         \
  __attribute__((noinline)) void name(double seconds) {                            \
    double end = thread_cpu_seconds() + seconds;                                   \
    unsigned long x = 1;                                                           \
    while (thread_cpu_seconds() < end)                                             \
      for (int i = 0; i < 20000; ++i) {                                            \
        x = x * 6364136223846793005ul + 1442695040888963407ul;                     \
        __asm__ volatile("" : "+r"(x)); /* kept: clang would fold the loop away */ \
      }                                                                            \
    __atomic_store_n(&sink, x, __ATOMIC_RELAXED);                                  \
  }
HOT_FUNCTION(hot_loop)
HOT_FUNCTION(hot_loop_a)
HOT_FUNCTION(hot_loop_b)

__attribute__((noinline)) void hot_work(double millions) {
  unsigned long x = 1;
  for (long i = 0; i < (long)(millions * 1e6); ++i) {
    x = x * 6364136223846793005ul + 1442695040888963407ul;
    __asm__ volatile("" : "+r"(x));
  }
  __atomic_store_n(&sink, x, __ATOMIC_RELAXED);
}

/* The caller of both loops, so that the flame graph has a frame with two callees in 3:1. */
__attribute__((noinline)) void shares_caller(double seconds) {
  hot_loop_a(seconds * 0.75);
  hot_loop_b(seconds * 0.25);
}

/* A frame as a walk reads it: the caller's frame pointer (0: the walk ends) and a return
 * address, here the address of this data, which is no instruction. */
unsigned long fake_frame[2] = {0, (unsigned long)&fake_frame};

#if defined(__x86_64__)
/* bad_frame_loop(n): n iterations with %rbp at fake_frame, as code compiled without frame
 * pointers may leave it; written in assembly because C may not touch the frame register. */
__asm__(
    ".text\n"
    ".globl bad_frame_loop\n"
    ".type bad_frame_loop, @function\n"
    "bad_frame_loop:\n"
    "  push %rbp\n"
    "  lea fake_frame(%rip), %rbp\n"
    "1:\n"
    "  dec %rdi\n"
    "  jnz 1b\n"
    "  pop %rbp\n"
    "  ret\n"
    ".size bad_frame_loop, .-bad_frame_loop\n");
void bad_frame_loop(unsigned long iterations);
static int bad_frame(double seconds) {
  double end = thread_cpu_seconds() + seconds;
  while (thread_cpu_seconds() < end) bad_frame_loop(5000000);
  return 0;
}
#else
static int bad_frame(double seconds) {
  (void)seconds;
  fprintf(stderr, "sampler_workload: badframe is written for x86-64 only\n");
  return 3;
}
#endif

static double g_seconds;
static void* run_a(void* arg) {
  (void)arg;
  hot_loop_a(g_seconds);
  return NULL;
}
static void* run_b(void* arg) {
  (void)arg;
  hot_loop_b(g_seconds);
  return NULL;
}

static int two_threads(void) {
  pthread_t a, b;
  if (pthread_create(&a, NULL, run_a, NULL) || pthread_create(&b, NULL, run_b, NULL)) return 1;
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  return 0;
}

int main(int argc, char** argv) {
  if (argc != 3) {
    fprintf(stderr,
            "usage: sampler_workload hot|threads|wait|shares|badframe SECONDS, or work MILLIONS\n");
    return 2;
  }
  g_seconds = atof(argv[2]);
  if (strcmp(argv[1], "hot") == 0) {
    hot_loop(g_seconds);
    return 0;
  }
  if (strcmp(argv[1], "threads") == 0) return two_threads();
  if (strcmp(argv[1], "shares") == 0) {
    shares_caller(g_seconds);
    return 0;
  }
  if (strcmp(argv[1], "badframe") == 0) return bad_frame(g_seconds);
  if (strcmp(argv[1], "work") == 0) {
    /* CPU time, not wall time: what sampling adds to the thread (its interrupts are charged to
     * it), unaffected by other programs sharing the CPUs. */
    struct timespec start, end;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &start);
    hot_work(g_seconds);
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &end);
    printf("cpu_ns %lld\n",
           (long long)(end.tv_sec - start.tv_sec) * 1000000000ll + (end.tv_nsec - start.tv_nsec));
    return 0;
  }
  if (strcmp(argv[1], "wait") == 0) {
    say_ready_and_wait_for_usr1();
    return two_threads();
  }
  return 2;
}
