/* SPDX-License-Identifier: MIT */
/* A thread created after its creator programmed counting inherits the program (docs/counting.md),
 * whatever the order in which libpmapi and libc were loaded. Built these ways:
 * - INHERIT_VIA_DLOPEN: libpmapi.so is dlopen'd (a JVM, Python's ctypes, a tool's plugin);
 * - INHERIT_VIA_HPM: the program links only -lhpm, which loads libpmapi after libc;
 * - with OpenMP as well: libgomp, loaded before libpmapi, starts the team's threads.
 * The threads come from the program itself, from a library linked with it (thread_starter.c),
 * and, in the dlopen variant, from a library dlopen'd after the set and covered at the next set.
 * Each new thread calls getppid a known number of times and reads its own count: it equals the
 * calls only if the thread counted from its start, in a context of its own. */
#include <pthread.h>

#include "probe.h"
#ifdef INHERIT_VIA_HPM
#include <libhpm.h>
#endif
#ifdef _OPENMP
#include <omp.h>
#endif

int starter_run_thread(void *(*routine)(void *), void *arg); /* thread_starter.c */
typedef int (*RunThreadFn)(void *(*)(void *), void *);

#ifdef INHERIT_VIA_DLOPEN
static GetDataFn get_data;
static SetProgramFn set_program;
static PlainFn delete_program;
static pm_prog_t program;
#endif

/* The calling thread's count of getppid calls since it started; -1 if it has no context. */
static long long own_count(void) {
#ifdef INHERIT_VIA_HPM
  long long values[MAX_COUNTERS] = {0};
  /* libhpm programs a thread that did not inherit at this first call: its count is then 0. */
  hpmGetCounters(values);
  return values[0];
#else
  pm_data_t data;
  int rc = get_data(&data);
  if (rc != 0) {
    fprintf(stderr, "pm_get_data_mythread in the new thread returned %d\n", rc);
    return -1;
  }
  return data.accu[0];
#endif
}

static int failures;

static void expect_count(const char *who, long long counted, int calls) {
  if (counted != calls) {
    fprintf(stderr, "FAIL: %s counted %lld of its %d getppid calls: it did not inherit\n", who,
            counted, calls);
    ++failures;
  } else {
    printf("%s counted its %d getppid calls\n", who, calls);
  }
}

struct Probe {
  const char *who;
  int calls;
};

static void *probe_thread(void *raw) {
  const struct Probe *probe = raw;
  probe_getppid(probe->calls);
  expect_count(probe->who, own_count(), probe->calls);
  return NULL;
}

/* Checks one thread started by `run`. */
static void check_thread(RunThreadFn run, const char *who, int calls) {
  struct Probe probe = {who, calls};
  if (run(probe_thread, &probe) != 0) {
    fprintf(stderr, "FAIL: pthread_create for %s\n", who);
    ++failures;
  }
}

/* Starts a thread with the program's own pthread_create call. */
static int run_own_thread(void *(*routine)(void *), void *arg) {
  pthread_t thread;
  int rc = pthread_create(&thread, NULL, routine, arg);
  if (rc == 0) pthread_join(thread, NULL);
  return rc;
}

static int tracepoint_readable(void) {
  return access("/sys/kernel/tracing/events/syscalls/sys_enter_getppid/id", R_OK) == 0 ||
         access("/sys/kernel/debug/tracing/events/syscalls/sys_enter_getppid/id", R_OK) == 0;
}

/* Programs the calling (main) thread to count getppid, inheritably. */
static void program_main_thread(int argc, char **argv) {
#ifdef INHERIT_VIA_HPM
  (void)argc, (void)argv;
  setenv("HPM_EVENT_SET", "syscalls:sys_enter_getppid", 1);
  hpmInit(0, "inherit_probe");
#else
  void *library;
  pm_info2_t info;
  pm_groups_info_t groups;
  int rc;
  if (argc != 2) {
    fprintf(stderr, "usage: %s LIBPMAPI_SO\n", argv[0]);
    exit(2);
  }
  library = probe_open(argv[1]);
  rc = ((InitializeFn)probe_symbol(library, "pm_initialize"))(
      PM_VERIFIED | PM_UNVERIFIED | PM_CAVEAT, &info, &groups, PM_CURRENT);
  if (rc != 0) {
    fprintf(stderr, "FAIL: pm_initialize returned %d\n", rc);
    exit(1);
  }
  program = probe_program(probe_event_id(&info, "syscalls:sys_enter_getppid"));
  set_program = (SetProgramFn)probe_symbol(library, "pm_set_program_mythread");
  delete_program = (PlainFn)probe_symbol(library, "pm_delete_program_mythread");
  get_data = (GetDataFn)probe_symbol(library, "pm_get_data_mythread");
  rc = set_program(&program);
  if (rc != 0) {
    fprintf(stderr, "FAIL: pm_set_program_mythread returned %d\n", rc);
    exit(1);
  }
#endif
}

#ifdef _OPENMP
static void check_openmp_team(void) {
#pragma omp parallel num_threads(3)
  {
    int member = omp_get_thread_num();
    if (member != 0) { /* the team's master is the main thread itself */
      char who[64];
      long long counted;
      probe_getppid(10 + member);
      counted = own_count();
      snprintf(who, sizeof who, "OpenMP thread %d", member);
#pragma omp critical
      expect_count(who, counted, 10 + member);
    }
  }
}
#endif

#ifdef INHERIT_VIA_DLOPEN
/* A library loaded after the set: its imports are redirected at the next set (docs/counting.md). */
static void check_library_loaded_later(void) {
  void *late = probe_open(LATE_STARTER_PATH);
  int rc;
  delete_program();
  rc = set_program(&program);
  if (rc != 0) {
    fprintf(stderr, "FAIL: pm_set_program_mythread again returned %d\n", rc);
    ++failures;
    return;
  }
  check_thread((RunThreadFn)probe_symbol(late, "starter_run_thread"),
               "a thread of a library dlopen'd after the first set", 29);
}
#endif

int main(int argc, char **argv) {
  if (!tracepoint_readable()) {
    printf("skipped: the getppid tracepoint is not readable here\n");
    return PROBE_SKIP;
  }
  program_main_thread(argc, argv);
#ifdef PROBE_UNDER_SANITIZER
  /* The sanitizer runtime linked into this program defines pthread_create, and the program's own
   * calls go straight to it, with no slot to redirect (docs/counting.md). */
  (void)run_own_thread;
  printf("the sanitized program's own pthread_create calls: not checked\n");
#else
  check_thread(run_own_thread, "a thread of the program itself", 37);
#endif
  check_thread(starter_run_thread, "a thread of a library linked with the program", 41);
#ifdef _OPENMP
  check_openmp_team();
#endif
#ifdef INHERIT_VIA_DLOPEN
  check_library_loaded_later();
#endif
  return failures ? 1 : 0;
}
