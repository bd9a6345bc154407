/* SPDX-License-Identifier: MIT */
/*
 * A third-party counting group on a child process, the way pmcount counts a
 * command: the child waits until the parent has programmed a group on it,
 * then runs a shell that makes 3 processes. The group counts the child and
 * everything it starts, exec'd programs included; here the event is the
 * number of processes and threads created (the sched_process_fork
 * tracepoint) and the group's members.
 */
#define _GNU_SOURCE
#include <pmapi.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int event_id(const pm_info2_t *info, const char *name) {
  int i;
  for (i = 0; i < info->maxevents[0]; ++i) {
    if (strcmp(info->list_events[0][i].short_name, name) == 0) {
      return info->list_events[0][i].event_id;
    }
  }
  return COUNT_NOTHING;
}

int main(void) {
  pm_info2_t info;
  pm_prog_t prog;
  pm_data_t data;
  int go[2], i, rc, status = 0;
  pid_t child;
  char byte = 'x';

  rc = pm_initialize(PM_VERIFIED, &info, NULL, PM_CURRENT);
  if (rc) {
    pm_error("pm_initialize", rc);
    return 1;
  }
  if (pipe(go) != 0) return 1;
  child = fork();
  if (child == 0) {
    close(go[1]);
    if (read(go[0], &byte, 1) != 1) _exit(2);
    execl("/bin/sh", "sh", "-c", "/bin/true; /bin/true; /bin/true", (char *)NULL);
    _exit(127);
  }
  close(go[0]);

  memset(&prog, 0, sizeof prog);
  for (i = 0; i < MAX_COUNTERS; ++i) prog.events[i] = COUNT_NOTHING;
  prog.events[0] = event_id(&info, "sched:sched_process_fork");
  prog.events[1] = event_id(&info, "sched:sched_process_exec");
  prog.mode.w = PM_USER | PM_KERNEL | PM_COUNT;
  rc = pm_set_program_group(child, child, &prog);
  if (rc) pm_error("pm_set_program_group", rc);
  if (write(go[1], &byte, 1) != 1) return 1;
  close(go[1]);
  waitpid(child, &status, 0);
  if (rc) return 1;

  rc = pm_get_data_group(child, child, &data);
  if (rc) {
    pm_error("pm_get_data_group", rc);
    return 1;
  }
  printf("child %d and its descendants: %lld forks, %lld execs, %d members\n", (int)child,
         data.accu[0], data.accu[1], data.ginfo.members);
  pm_delete_program_group(child, child);
  /* sh may exec the last command in place of forking it: 2 or 3 forks. */
  return data.accu[0] >= 2 && data.accu[1] >= 3 && data.ginfo.members == 1 + data.accu[0] ? 0 : 1;
}
