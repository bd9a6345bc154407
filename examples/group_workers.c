/* SPDX-License-Identifier: MIT */
/*
 * A counting group over worker threads: the main thread programs a group,
 * then starts 4 workers that each make 1000 getppid() calls. The group's data
 * is the sum over every thread that belonged (4000), and ginfo.members counts
 * them all (5, the main thread included), dead ones too; each worker also
 * has its own data (1000).
 *
 *   group_workers [EVENT]   counts EVENT (a name or the number pmlist shows) in
 *   user mode in place of the getppid calls: PM_INST_CMPL, for one
 */
#define _GNU_SOURCE
#include <pmapi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define WORKERS 4
#define CALLS 1000

/* An event by its name, or by the number pmlist shows for it (as AIX programs index events). */
static int event_id(const pm_info2_t *info, const char *name) {
  char *end;
  const long number = strtol(name, &end, 10);
  int i;
  if (*name != '\0' && *end == '\0') return (int)number;
  for (i = 0; i < info->maxevents[0]; ++i) {
    if (strcmp(info->list_events[0][i].short_name, name) == 0) {
      return info->list_events[0][i].event_id;
    }
  }
  return COUNT_NOTHING;
}

static void *worker(void *own_count) {
  pm_data_t data;
  int i;
  for (i = 0; i < CALLS; ++i) syscall(SYS_getppid);
  /* A new thread inherits its creator's program and group membership. */
  if (pm_get_data_mythread(&data) == 0) *(long long *)own_count = data.accu[0];
  return NULL;
}

int main(int argc, char **argv) {
  const char *event = argc > 1 ? argv[1] : "syscalls:sys_enter_getppid";
  pm_info2_t info;
  pm_prog_t prog;
  pm_data_t data;
  pthread_t threads[WORKERS];
  long long own[WORKERS] = {0};
  int i, rc, ok = 1;

  rc = pm_initialize(PM_VERIFIED, &info, NULL, PM_CURRENT);
  if (rc) {
    pm_error("pm_initialize", rc);
    return 1;
  }
  memset(&prog, 0, sizeof prog);
  for (i = 0; i < MAX_COUNTERS; ++i) prog.events[i] = COUNT_NOTHING;
  prog.events[0] = event_id(&info, event);
  /* Tracepoints fire in the kernel; another event counts this program's own code. */
  prog.mode.w = (argc > 1 ? PM_USER : PM_USER | PM_KERNEL) | PM_COUNT;
  rc = pm_set_program_mygroup(&prog);
  if (rc) {
    pm_error("pm_set_program_mygroup", rc);
    return 1;
  }
  for (i = 0; i < WORKERS; ++i) pthread_create(&threads[i], NULL, worker, &own[i]);
  for (i = 0; i < WORKERS; ++i) pthread_join(threads[i], NULL);

  rc = pm_get_data_mygroup(&data);
  if (rc) {
    pm_error("pm_get_data_mygroup", rc);
    return 1;
  }
  printf("group: %lld %s by %d members (consistent: %u)\n", data.accu[0], event, data.ginfo.members,
         data.ginfo.flags.b.consistent);
  for (i = 0; i < WORKERS; ++i) {
    printf("  worker %d: %lld of its own\n", i, own[i]);
    ok &= argc > 1 || own[i] == CALLS;
  }
  pm_delete_program_mygroup();
  /* The counts of calls are known; another event's are only printed. */
  ok &= argc > 1 || data.accu[0] == WORKERS * CALLS;
  return ok && data.ginfo.members == WORKERS + 1 ? 0 : 1;
}
