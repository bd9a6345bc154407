/* SPDX-License-Identifier: MIT */
/*
 * System-wide counting with a per-CPU loop: count context switches and
 * getppid calls on every online CPU for a short while (needs root or
 * CAP_PERFMON), then print each CPU and the total.
 *
 *   system_wide [EVENT]   counts EVENT (a name or the number pmlist shows) in
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
  long long sum = 0;
  long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  int i, rc;

  rc = pm_initialize(PM_VERIFIED, &info, NULL, PM_CURRENT);
  if (rc) {
    pm_error("pm_initialize", rc);
    return 1;
  }
  memset(&prog, 0, sizeof prog);
  for (i = 0; i < MAX_COUNTERS; ++i) prog.events[i] = COUNT_NOTHING;
  prog.events[0] = event_id(&info, event);
  prog.events[1] = event_id(&info, "context-switches");
  /* Tracepoints fire in the kernel; another event counts this program's own code. */
  prog.mode.w = argc > 1 ? PM_USER : PM_USER | PM_KERNEL;

  rc = pm_set_program(&prog);
  if (rc) {
    pm_error("pm_set_program", rc); /* says what privilege is missing */
    return 1;
  }
  pm_start();
  for (i = 0; i < 2000; ++i) syscall(SYS_getppid);
  usleep(20000);
  pm_stop();

  for (i = 0; i < cpus; ++i) {
    rc = pm_get_data_cpu(i, &data);
    if (rc) {
      pm_error("pm_get_data_cpu", rc);
      continue;
    }
    printf("cpu %d: %lld %s, %lld context switches\n", i, data.accu[0], event, data.accu[1]);
    sum += data.accu[0];
  }
  pm_get_data(&data);
  printf("total: %lld %s, %lld context switches\n", data.accu[0], event, data.accu[1]);
  pm_delete_program();
  /* The count of calls is known; another event's is only printed. */
  return sum == data.accu[0] && (argc > 1 || data.accu[0] >= 2000) ? 0 : 1;
}
