/* SPDX-License-Identifier: MIT */
/*
 * A process-level counting group (mode PM_PROCESS): it takes in the threads
 * that already exist, not only those started afterwards. A helper thread is
 * started first and waits; the group is then programmed from the main
 * thread; the helper makes 600 getppid() calls and the main thread 400: the
 * group sees all 1000.
 *
 *   process_group [EVENT]   counts EVENT (a name or the number pmlist shows) in
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

static int go[2];

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

static void *existing_thread(void *unused) {
  char byte;
  int i;
  (void)unused;
  if (read(go[0], &byte, 1) == 1) {
    for (i = 0; i < 600; ++i) syscall(SYS_getppid);
  }
  return NULL;
}

int main(int argc, char **argv) {
  const char *event = argc > 1 ? argv[1] : "syscalls:sys_enter_getppid";
  pm_info2_t info;
  pm_prog_t prog;
  pm_data_t data;
  pthread_t helper;
  int i, rc;

  rc = pm_initialize(PM_VERIFIED, &info, NULL, PM_CURRENT);
  if (rc) {
    pm_error("pm_initialize", rc);
    return 1;
  }
  if (pipe(go) != 0) return 1;
  pthread_create(&helper, NULL, existing_thread, NULL);

  memset(&prog, 0, sizeof prog);
  for (i = 0; i < MAX_COUNTERS; ++i) prog.events[i] = COUNT_NOTHING;
  prog.events[0] = event_id(&info, event);
  /* Tracepoints fire in the kernel; another event counts this program's own code. */
  prog.mode.w = (argc > 1 ? PM_USER : PM_USER | PM_KERNEL) | PM_COUNT | PM_PROCESS;
  rc = pm_set_program_mygroup(&prog);
  if (rc) pm_error("pm_set_program_mygroup", rc);
  if (write(go[1], "g", 1) != 1) return 1;
  pthread_join(helper, NULL);
  if (rc) return 1;
  for (i = 0; i < 400; ++i) syscall(SYS_getppid);

  rc = pm_get_data_mygroup(&data);
  if (rc) {
    pm_error("pm_get_data_mygroup", rc);
    return 1;
  }
  printf("process group: %lld %s, %d members, process flag %u\n", data.accu[0], event,
         data.ginfo.members, data.ginfo.flags.b.process);
  pm_delete_program_mygroup();
  /* The count of calls is known; another event's is only printed. */
  return (argc > 1 || data.accu[0] == 1000) && data.ginfo.flags.b.process ? 0 : 1;
}
