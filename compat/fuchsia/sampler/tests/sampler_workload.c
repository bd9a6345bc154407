/* A program with known hot functions, for the sampler's and pmsample's tests. Built with
 * frame pointers and the hot functions never inlined, so each sample's stack shows them.
 *   sampler_workload hot SECONDS       the main thread burns SECONDS of CPU in hot_loop
 *   sampler_workload threads SECONDS   two new threads burn SECONDS each, in hot_loop_a / _b
 *   sampler_workload wait SECONDS      prints "ready", waits for SIGUSR1, then as "threads"
 *   sampler_workload work MILLIONS     a fixed amount of work (millions of steps) in hot_work;
 *                                      prints the CPU time it took, in ns (benchmarks) */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

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
    fprintf(stderr, "usage: sampler_workload hot|threads|wait SECONDS\n");
    return 2;
  }
  g_seconds = atof(argv[2]);
  if (strcmp(argv[1], "hot") == 0) {
    hot_loop(g_seconds);
    return 0;
  }
  if (strcmp(argv[1], "threads") == 0) return two_threads();
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
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGUSR1);
    sigprocmask(SIG_BLOCK, &set, NULL);
    printf("ready\n");
    fflush(stdout);
    int signal_number = 0;
    sigwait(&set, &signal_number);
    return two_threads();
  }
  return 2;
}
