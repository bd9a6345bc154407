/* SPDX-License-Identifier: MIT */
/* A library that starts threads, as a runtime (libgomp, a JVM) does: its pthread_create import
 * is bound through its own jump slot, wherever libpmapi sits in the search order. Built twice:
 * linked into the test programs, and dlopen'd by them after they programmed counting. */
#include <pthread.h>

/* Runs `routine(arg)` in a new thread and waits for it; pthread_create's result. */
__attribute__((visibility("default"))) int starter_run_thread(void *(*routine)(void *), void *arg) {
  pthread_t thread;
  int rc = pthread_create(&thread, NULL, routine, arg);
  if (rc == 0) pthread_join(thread, NULL);
  return rc;
}
