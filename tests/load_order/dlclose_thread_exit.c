/* SPDX-License-Identifier: MIT */
/* A thread programs its own counting through a dlopen'd libpmapi; the main thread dlcloses the
 * library; then the thread exits without deleting its context. The library's release of the
 * context at thread exit must still be there to run. */
#include <pthread.h>

#include "probe.h"

static pthread_barrier_t programmed, closed;
static SetProgramFn set_program;
static int event;
static int set_rc = -1;

static void *programs_and_waits(void *unused) {
  pm_prog_t prog = probe_program(event);
  (void)unused;
  set_rc = set_program(&prog);
  probe_getppid(10);
  pthread_barrier_wait(&programmed);
  pthread_barrier_wait(&closed);
  return NULL; /* the context is left for thread exit to release */
}

int main(int argc, char **argv) {
  void *library;
  pm_info2_t info;
  pm_groups_info_t groups;
  pthread_t thread;
  int rc;
  if (argc != 2) {
    fprintf(stderr, "usage: %s LIBPMAPI_SO\n", argv[0]);
    return 2;
  }
  library = probe_open(argv[1]);
  rc = ((InitializeFn)probe_symbol(library, "pm_initialize"))(
      PM_VERIFIED | PM_UNVERIFIED | PM_CAVEAT, &info, &groups, PM_CURRENT);
  if (rc != 0) {
    fprintf(stderr, "FAIL: pm_initialize returned %d\n", rc);
    return 1;
  }
  event = probe_event_id(&info, "task-clock");
  if (event == COUNT_NOTHING) {
    fprintf(stderr, "FAIL: task-clock is not in the catalog\n");
    return 1;
  }
  set_program = (SetProgramFn)probe_symbol(library, "pm_set_program_mythread");
  pthread_barrier_init(&programmed, NULL, 2);
  pthread_barrier_init(&closed, NULL, 2);
  if (pthread_create(&thread, NULL, programs_and_waits, NULL) != 0) {
    fprintf(stderr, "FAIL: pthread_create\n");
    return 1;
  }
  pthread_barrier_wait(&programmed);
  if (dlclose(library) != 0) {
    fprintf(stderr, "FAIL: dlclose: %s\n", dlerror());
    return 1;
  }
  pthread_barrier_wait(&closed);
  pthread_join(thread, NULL);
  if (set_rc != 0) {
    fprintf(stderr, "FAIL: pm_set_program_mythread returned %d\n", set_rc);
    return 1;
  }
  printf("the thread exited after dlclose, its context released\n");
  return 0;
}
