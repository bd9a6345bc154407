/* SPDX-License-Identifier: MIT */
/*
 * Third-party counting: a parent counts a thread of its child process, the
 * way a debugger or a tool like pmcount does. The child waits on a pipe until
 * it is programmed, makes 700 getppid() calls and exits; the counts stay
 * readable after it is gone.
 *
 *   third_party [EVENT]   counts EVENT (a name or the number pmlist shows) in
 *   user mode in place of the getppid calls: PM_INST_CMPL, for one
 */
#define _GNU_SOURCE
#include <pmapi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
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
  int go[2], i, rc;
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
    if (read(go[0], &byte, 1) == 1) {
      for (i = 0; i < 700; ++i) syscall(SYS_getppid);
    }
    _exit(0);
  }
  close(go[0]);

  memset(&prog, 0, sizeof prog);
  for (i = 0; i < MAX_COUNTERS; ++i) prog.events[i] = COUNT_NOTHING;
  prog.events[0] = event_id(&info, event);
  /* Tracepoints fire in the kernel; another event counts this program's own code. */
  prog.mode.w = (argc > 1 ? PM_USER : PM_USER | PM_KERNEL) | PM_COUNT;
  rc = pm_set_program_thread(child, child, &prog); /* tid == pid: the main thread */
  if (rc) pm_error("pm_set_program_thread", rc);
  if (write(go[1], &byte, 1) != 1) return 1;
  close(go[1]);
  waitpid(child, NULL, 0);
  if (rc) return 1;

  rc = pm_get_data_thread(child, child, &data);
  if (rc) {
    pm_error("pm_get_data_thread", rc);
    return 1;
  }
  printf("child %d: %lld %s\n", (int)child, data.accu[0], event);
  pm_delete_program_thread(child, child);
  /* The count of calls is known; another event's is only printed. */
  return argc > 1 || data.accu[0] == 700 ? 0 : 1;
}
