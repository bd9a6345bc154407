/* SPDX-License-Identifier: MIT */
/*
 * First-party counting: the calling thread counts its own getppid() calls
 * and the time it spent, reading while counting and after stopping.
 *
 *   mythread [EVENT]   counts EVENT (a name or the number pmlist shows) in
 *   user mode in place of the getppid calls: PM_INST_CMPL, for one
 */
#define _GNU_SOURCE
#include <pmapi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

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

int main(int argc, char **argv) {
  const char *event = argc > 1 ? argv[1] : "syscalls:sys_enter_getppid";
  pm_info2_t info;
  pm_prog_t prog;
  pm_data_t data;
  int i, rc;

  rc = pm_initialize(PM_VERIFIED | PM_CAVEAT, &info, NULL, PM_CURRENT);
  if (rc) {
    pm_error("pm_initialize", rc);
    return 1;
  }
  memset(&prog, 0, sizeof prog);
  for (i = 0; i < MAX_COUNTERS; ++i) prog.events[i] = COUNT_NOTHING;
  prog.events[0] = event_id(&info, event);
  prog.events[1] = event_id(&info, "task-clock");
  /* Tracepoints fire in the kernel; another event counts this program's own code. */
  prog.mode.w = (argc > 1 ? PM_USER : PM_USER | PM_KERNEL) | PM_COUNT; /* counting starts at once */

  rc = pm_set_program_mythread(&prog);
  if (rc) {
    pm_error("pm_set_program_mythread", rc);
    return 1;
  }
  for (i = 0; i < 1000; ++i) syscall(SYS_getppid);
  pm_get_data_mythread(&data); /* reading while counting is fine */
  printf("after 1000 calls: %lld %s, %lld ns\n", data.accu[0], event, data.accu[1]);
  for (i = 0; i < 500; ++i) syscall(SYS_getppid);
  pm_stop_mythread();
  pm_get_data_mythread(&data);
  printf("after 1500 calls: %lld %s, %lld ns\n", data.accu[0], event, data.accu[1]);
  pm_delete_program_mythread();
  /* The count of calls is known; another event's is only printed. */
  return argc > 1 || data.accu[0] == 1500 ? 0 : 1;
}
