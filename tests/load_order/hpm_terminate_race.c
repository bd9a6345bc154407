/* SPDX-License-Identifier: MIT */
/* hpmTerminate and hpmInit, 400 times over, while three threads start and stop a section without
 * pause: a terminated run must not be freed while a thread is still inside a call that read it
 * (libhpm's run_use.h). Under AddressSanitizer a run freed too early is a use after free; here it
 * asserts the program ends, with every thread's calls made. */
#define LIBHPM_NO_MACROS
#include <libhpm.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

enum { kThreads = 3, kCycles = 400 };

static atomic_int g_stop;

static void *start_and_stop(void *unused) {
  long calls = 0;
  (void)unused;
  while (!atomic_load(&g_stop)) {
    hpmStart(5, "worker");
    hpmStop(5);
    ++calls;
  }
  return (void *)calls;
}

int main(void) {
  char directory[] = "/tmp/hpm_terminate_race.XXXXXX";
  char output[64], report[128];
  pthread_t threads[kThreads];
  int i;
  if (!mkdtemp(directory)) {
    perror("mkdtemp");
    return 1;
  }
  snprintf(output, sizeof output, "%s/hpm", directory);
  setenv("HPM_OUTPUT_NAME", output, 1);
  hpmInit(0, "hpm_terminate_race");
  for (i = 0; i < kThreads; ++i) {
    if (pthread_create(&threads[i], NULL, start_and_stop, NULL) != 0) {
      fprintf(stderr, "FAIL: pthread_create\n");
      return 1;
    }
  }
  for (i = 0; i < kCycles; ++i) {
    hpmTerminate(0);
    hpmInit(0, "hpm_terminate_race");
  }
  atomic_store(&g_stop, 1);
  for (i = 0; i < kThreads; ++i) {
    void *calls;
    pthread_join(threads[i], &calls);
    if ((long)calls == 0) {
      fprintf(stderr, "FAIL: thread %d made no call\n", i);
      return 1;
    }
  }
  hpmTerminate(0);
  snprintf(report, sizeof report, "%s0.%ld", output, (long)getpid());
  unlink(report);
  snprintf(report, sizeof report, "%s0.%ld.json", output, (long)getpid());
  unlink(report);
  rmdir(directory);
  printf("%d runs terminated under %d calling threads\n", kCycles + 1, kThreads);
  return 0;
}
