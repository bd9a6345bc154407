/* SPDX-License-Identifier: MIT */
/*
 * libhpm test scenarios: each runs one use of the API (good or bad) and
 * ends with hpmTerminate; run_scenario.py runs it in a scratch directory and
 * checks the report. Counts come from syscalls:sys_enter_getppid (the runner
 * sets HPM_EVENT_SET), so every expected number is exact.
 *   hpm_scenarios SCENARIO      (see the table in main)
 *   hpm_scenarios group NAME    prints group NAME's number and members
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <libhpm.h>
#include <pmapi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void getppid_calls(int n) {
  int i;
  for (i = 0; i < n; ++i) syscall(SYS_getppid);
}

static int failures;
#define EXPECT(cond)                                                      \
  do {                                                                    \
    if (!(cond)) {                                                        \
      fprintf(stderr, "%s:%d: expected %s\n", __FILE__, __LINE__, #cond); \
      ++failures;                                                         \
    }                                                                     \
  } while (0)

/* Outer section: 1,000 calls of its own; inner, entered 3 times, 100 each. */
static void nested(void) {
  int i;
  hpmInit(0, "nested");
  hpmStart(1, "outer");
  getppid_calls(500);
  for (i = 0; i < 3; ++i) {
    hpmStart(2, "inner");
    getppid_calls(100);
    hpmStop(2);
  }
  getppid_calls(500);
  hpmStop(1);
  hpmTerminate(0);
}

static pthread_barrier_t barrier;

static void *thread_body(void *arg) {
  if (arg) pthread_barrier_wait(&barrier); /* started before hpmInit: wait for it */
  hpmTstart(7, "threads");
  getppid_calls(250);
  hpmTstop(7);
  return NULL;
}

/* Four threads in section 7, 250 calls each; `early`: started before hpmInit. */
static void threads(int early) {
  pthread_t t[4];
  int i;
  if (early) {
    pthread_barrier_init(&barrier, NULL, 5);
    for (i = 0; i < 4; ++i) pthread_create(&t[i], NULL, thread_body, &barrier);
    hpmInit(0, "threads_early");
    pthread_barrier_wait(&barrier);
  } else {
    hpmInit(0, "threads");
    for (i = 0; i < 4; ++i) pthread_create(&t[i], NULL, thread_body, NULL);
  }
  for (i = 0; i < 4; ++i) pthread_join(t[i], NULL);
  hpmTerminate(0);
}

static void get_counters(void) {
  long long values[MAX_COUNTERS] = {0}, two[2] = {0, -5};
  double seconds = -1;
  hpmInit(0, "get_counters");
  getppid_calls(500);
  hpmGetCounters(values);
  EXPECT(values[0] == 500);
  getppid_calls(20);
  hpmGetTimeAndCounters(1, &seconds, two);
  EXPECT(two[0] == 520);
  EXPECT(two[1] == -5); /* numCounters is respected */
  EXPECT(seconds > 0 && seconds < 60);
  hpmTerminate(0);
}

/* Prints the group's members: the lists name an event on every counter, a
 * filler repeated on the free ones; a group names no event twice. */
static void print_members(const pm_info2_t *info, const pm_groups_t *group) {
  const char *names[MAX_COUNTERS];
  int k, i, j, n = 0;
  for (k = 0; k < MAX_COUNTERS && group->events[k] != COUNT_NOTHING; ++k) {
    const char *name = NULL;
    for (i = 0; i < info->maxevents[k]; ++i) {
      if (info->list_events[k][i].event_id == group->events[k])
        name = info->list_events[k][i].short_name;
    }
    if (!name) break;
    for (j = 0; j < n; ++j) {
      if (strcmp(names[j], name) == 0) return;
    }
    names[n++] = name;
    printf(" %s", name);
  }
}

/* One section of 10 calls: what the event-selection runs look at. */
static void ten_calls(void) {
  hpmInit(0, "ten_calls");
  hpmStart(1, "ten");
  getppid_calls(10);
  hpmStop(1);
  hpmTerminate(0);
}

static void stop_without_start(void) {
  hpmInit(0, "stop_without_start");
  hpmStop(3);
  hpmStop(3);
  hpmStart(1, "after");
  getppid_calls(10);
  hpmStop(1);
  hpmTerminate(0);
}

/* Stopping 1 while 2 is open stops 2 there too. */
static void unbalanced(void) {
  hpmInit(0, "unbalanced");
  hpmStart(1, "outer");
  hpmStart(2, "inner");
  getppid_calls(100);
  hpmStop(1);
  getppid_calls(50); /* in no section */
  hpmTerminate(0);
}

static void out_of_range(void) {
  hpmInit(0, "out_of_range");
  hpmStart(-1, "negative");
  hpmStart(101, "one too far");
  hpmStop(101);
  hpmTstart(1 << 30, "far");
  hpmStart(100, "last");
  getppid_calls(10);
  hpmStop(100);
  hpmStart(0, "first");
  hpmStop(0);
  hpmTerminate(0);
}

/* HPM_NUM_INST_PTS=200 in the environment. */
static void more_sections(void) {
  hpmInit(0, "more_sections");
  hpmStart(200, "beyond 100");
  getppid_calls(10);
  hpmStop(200);
  hpmStart(201, "beyond 200");
  hpmStop(201);
  hpmTerminate(0);
}

static void terminate_twice(void) {
  hpmInit(0, "terminate_twice");
  hpmStart(1, "one");
  getppid_calls(10);
  hpmStop(1);
  hpmTerminate(0);
  hpmTerminate(0);
}

static void before_init(void) {
  long long values[MAX_COUNTERS] = {0};
  hpmStart(1, "early");
  hpmStop(1);
  hpmGetCounters(values);
  hpmTerminate(0);
  hpmInit(0, "before_init");
  hpmStart(1, "late");
  getppid_calls(10);
  hpmStop(1);
  hpmTerminate(0);
  hpmStart(1, "after the end");
}

static void init_twice(void) {
  hpmInit(0, "init_twice");
  hpmInit(1, "again");
  hpmStart(1, "one");
  getppid_calls(10);
  hpmStop(1);
  hpmTerminate(0);
}

/* Eight threads call hpmInit at once, then each counts 100 calls in a section of its own: one
 * run wins, the other seven calls are init_twice, and every thread's section is in the report.
 * hpmInit programs the calling thread after it has checked that no run is in progress and
 * before it publishes its own: this program's pm_set_program_mythread (which libhpm calls
 * instead of libpmapi's) holds each racer there until all eight have come, so that every one
 * has passed the check and they all publish at once. */
enum { kRacers = 8 };
static pthread_barrier_t race_barrier;
static int (*real_set_program_mythread)(pm_prog_t *);
static pthread_mutex_t gate_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t gate_opened = PTHREAD_COND_INITIALIZER;
static int gate_closed; /* init_race: racers wait in pm_set_program_mythread */
static int gate_arrived;
static _Thread_local int gate_passed;

/* Waits for the other racers; gives up after 30 s (an hpmInit that programs nothing), which
 * the report's checks then show. */
static void wait_at_gate(void) {
  struct timespec until;
  clock_gettime(CLOCK_REALTIME, &until);
  until.tv_sec += 30;
  pthread_mutex_lock(&gate_lock);
  if (++gate_arrived == kRacers) pthread_cond_broadcast(&gate_opened);
  while (gate_arrived < kRacers) {
    if (pthread_cond_timedwait(&gate_opened, &gate_lock, &until) != 0) {
      fprintf(stderr, "init_race: only %d of %d racers reached the gate\n", gate_arrived, kRacers);
      break;
    }
  }
  pthread_mutex_unlock(&gate_lock);
}

int pm_set_program_mythread(pm_prog_t *prog) {
  int closed;
  pthread_mutex_lock(&gate_lock);
  closed = gate_closed;
  pthread_mutex_unlock(&gate_lock);
  if (closed && !gate_passed) {
    gate_passed = 1;
    wait_at_gate();
  }
  return real_set_program_mythread(prog);
}

static void *init_racer(void *arg) {
  int id = (int)(long)arg;
  pthread_barrier_wait(&race_barrier);
  hpmInit(0, "init_race");
  hpmStart(id + 1, "racer");
  getppid_calls(100);
  hpmStop(id + 1);
  return NULL;
}

static void init_race(void) {
  pthread_t t[kRacers];
  long i;
  pthread_barrier_init(&race_barrier, NULL, kRacers);
  gate_closed = 1;
  for (i = 0; i < kRacers; ++i) EXPECT(pthread_create(&t[i], NULL, init_racer, (void *)i) == 0);
  for (i = 0; i < kRacers; ++i) pthread_join(t[i], NULL);
  pthread_barrier_destroy(&race_barrier);
  EXPECT(gate_arrived == kRacers);
  hpmTerminate(0);
}

/* A recursive routine starting its own section: counted once. */
static void started_twice(void) {
  hpmInit(0, "started_twice");
  hpmStart(1, "recursive");
  getppid_calls(10);
  hpmStart(1, "recursive");
  getppid_calls(10);
  hpmStop(1);
  getppid_calls(10);
  hpmStop(1);
  hpmTerminate(0);
}

static void open_at_terminate(void) {
  hpmInit(0, "open_at_terminate");
  hpmStart(1, "left open");
  hpmStart(2, "inner left open");
  getppid_calls(10);
  hpmTerminate(0);
}

/* A forked child counts in a context of its own, programmed at its first
 * call: 5,000 calls in a new section, inside section 1, open at the fork. The
 * parent's section 1 holds its own 100 + 100 calls only. Each writes a report. */
static void fork_child(void) {
  int status = -1;
  pid_t child;
  hpmInit(0, "fork_child");
  hpmStart(1, "open at the fork");
  getppid_calls(100);
  fflush(stdout);
  child = fork();
  if (child == 0) {
    long long values[MAX_COUNTERS] = {0};
    hpmStart(2, "in the child");
    getppid_calls(5000);
    hpmStop(2);
    hpmGetCounters(values);
    EXPECT(values[0] == 5000);
    hpmStop(1);
    hpmTerminate(0);
    printf("scenario fork_child: child finished\n");
    _exit(failures ? 1 : 0);
  }
  EXPECT(child > 0);
  EXPECT(waitpid(child, &status, 0) == child);
  EXPECT(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  getppid_calls(100);
  hpmStop(1);
  hpmTerminate(0);
}

static int print_group(const char *name) {
  pm_info2_t info;
  pm_groups_info_t groups;
  int g;
  int rc = pm_initialize(PM_VERIFIED | PM_UNVERIFIED | PM_CAVEAT | PM_GET_GROUPS, &info, &groups,
                         PM_CURRENT);
  if (rc) {
    pm_error("pm_initialize", rc);
    return 1;
  }
  for (g = 0; g < groups.maxgroups; ++g) {
    if (strcmp(groups.event_groups[g].short_name, name) != 0) continue;
    printf("%d", groups.event_groups[g].group_id);
    print_members(&info, &groups.event_groups[g]);
    printf("\n");
    return 0;
  }
  fprintf(stderr, "no group %s\n", name);
  return 1;
}

int main(int argc, char **argv) {
  static const struct {
    const char *name;
    void (*run)(void);
  } scenarios[] = {
      {"nested", nested},
      {"get_counters", get_counters},
      {"ten_calls", ten_calls},
      {"stop_without_start", stop_without_start},
      {"unbalanced", unbalanced},
      {"out_of_range", out_of_range},
      {"more_sections", more_sections},
      {"terminate_twice", terminate_twice},
      {"before_init", before_init},
      {"init_twice", init_twice},
      {"init_race", init_race},
      {"started_twice", started_twice},
      {"open_at_terminate", open_at_terminate},
      {"fork_child", fork_child},
  };
  size_t i;
  /* POSIX's way to a function pointer from dlsym, which ISO C does not convert. */
  *(void **)&real_set_program_mythread = dlsym(RTLD_NEXT, "pm_set_program_mythread");
  if (!real_set_program_mythread) {
    fprintf(stderr, "pm_set_program_mythread not found after this program: %s\n", dlerror());
    return 1;
  }
  if (argc == 3 && strcmp(argv[1], "group") == 0) return print_group(argv[2]);
  if (argc != 2) {
    fprintf(stderr, "usage: %s SCENARIO | group NAME\n", argv[0]);
    return 2;
  }
  if (strcmp(argv[1], "threads") == 0) {
    threads(0);
  } else if (strcmp(argv[1], "threads_early") == 0) {
    threads(1);
  } else {
    for (i = 0; i < sizeof scenarios / sizeof scenarios[0]; ++i) {
      if (strcmp(argv[1], scenarios[i].name) == 0) break;
    }
    if (i == sizeof scenarios / sizeof scenarios[0]) {
      fprintf(stderr, "no scenario %s\n", argv[1]);
      return 2;
    }
    scenarios[i].run();
  }
  printf("scenario %s: finished\n", argv[1]);
  return failures ? 1 : 0;
}
