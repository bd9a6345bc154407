/* SPDX-License-Identifier: MIT */
/*
 * A process-level counting group (mode PM_PROCESS): it takes in the threads
 * that already exist, not only those started afterwards. A helper thread is
 * started first and waits; the group is then programmed from the main
 * thread; the helper makes 600 getppid() calls and the main thread 400: the
 * group sees all 1000.
 */
#define _GNU_SOURCE
#include <pmapi.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static int go[2];

static int event_id(const pm_info2_t *info, const char *name) {
  int i;
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

int main(void) {
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
  prog.events[0] = event_id(&info, "syscalls:sys_enter_getppid");
  prog.mode.w = PM_USER | PM_KERNEL | PM_COUNT | PM_PROCESS;
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
  printf("process group: %lld getppid calls, %d members, process flag %u\n", data.accu[0],
         data.ginfo.members, data.ginfo.flags.b.process);
  pm_delete_program_mygroup();
  return data.accu[0] == 1000 && data.ginfo.flags.b.process ? 0 : 1;
}
