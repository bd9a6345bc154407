/* A thread created after its creator programmed counting inherits the program (docs/counting.md),
 * whatever the order in which libpmapi and libc were loaded. Built three ways:
 * - INHERIT_VIA_DLOPEN: libpmapi.so is dlopen'd (a JVM, Python's ctypes, a tool's plugin);
 * - INHERIT_VIA_HPM: the program links only -lhpm, which loads libpmapi after libc;
 * - with OpenMP as well: libgomp, loaded before libpmapi, starts the team's threads.
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

#ifdef INHERIT_VIA_DLOPEN
static GetDataFn get_data;
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

static void *posix_thread(void *unused) {
  (void)unused;
  probe_getppid(37);
  expect_count("a pthread_create thread", own_count(), 37);
  return NULL;
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
  pm_prog_t prog;
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
  prog = probe_program(probe_event_id(&info, "syscalls:sys_enter_getppid"));
  rc = ((SetProgramFn)probe_symbol(library, "pm_set_program_mythread"))(&prog);
  if (rc != 0) {
    fprintf(stderr, "FAIL: pm_set_program_mythread returned %d\n", rc);
    exit(1);
  }
  get_data = (GetDataFn)probe_symbol(library, "pm_get_data_mythread");
#endif
}

int main(int argc, char **argv) {
  pthread_t thread;
  if (!tracepoint_readable()) {
    printf("skipped: the getppid tracepoint is not readable here\n");
    return PROBE_SKIP;
  }
  program_main_thread(argc, argv);
  if (pthread_create(&thread, NULL, posix_thread, NULL) != 0) {
    fprintf(stderr, "FAIL: pthread_create\n");
    return 1;
  }
  pthread_join(thread, NULL);
#ifdef _OPENMP
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
#endif
  return failures ? 1 : 0;
}
