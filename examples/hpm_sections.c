/* SPDX-License-Identifier: MIT */
/*
 * Instrumenting code sections with libhpm (the HPM Toolkit API): a section
 * around the whole computation, one nested in it that is entered three
 * times, and a threaded section all four threads add to. hpmTerminate writes
 * the report perfhpm<task>.<pid> (and .json) in the working directory.
 *   cc hpm_sections.c $(pkg-config --cflags --libs libhpm) -lpthread
 *   HPM_EVENT_SET=syscalls:sys_enter_getppid,task-clock ./a.out
 */
#define _GNU_SOURCE
#include <libhpm.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

static void work(int n) {
  int i;
  for (i = 0; i < n; ++i) syscall(SYS_getppid);
}

static void *worker(void *unused) {
  (void)unused;
  hpmTstart(7, "worker threads");
  work(250);
  hpmTstop(7);
  return NULL;
}

int main(void) {
  pthread_t threads[4];
  long long values[8] = {0};
  int i;

  hpmInit(0, "hpm_sections");
  hpmStart(1, "computation");
  work(1000);
  for (i = 0; i < 3; ++i) {
    hpmStart(2, "inner step");
    work(100);
    hpmStop(2);
  }
  hpmStop(1);

  for (i = 0; i < 4; ++i) pthread_create(&threads[i], NULL, worker, NULL);
  for (i = 0; i < 4; ++i) pthread_join(threads[i], NULL);

  hpmGetCounters(values); /* this thread's counts since hpmInit */
  printf("first event since hpmInit: %lld\n", values[0]);
  hpmTerminate(0);
  printf("report written: perfhpm0.%ld\n", (long)getpid());
  return 0;
}
