/* SPDX-License-Identifier: MIT */
/*
 * A counting session: every system-call tracepoint and the user and kernel page faults of a
 * command and everything it starts, as perf stat counts them. The command waits on a pipe
 * until the session counts it, so that its exec and all after it are counted.
 */
#define _GNU_SOURCE
#include <pmapi.h>
#include <pmapi_session.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *const command[] = {"sh", "-c", "seq 20000 | sort -n > /dev/null", NULL};

int main(void) {
  pm_info2_t info;
  pm_session_t *session = NULL;
  pm_session_count_t *counts = NULL;
  int go[2], nevents = 0, i, rc, status = 0;
  pid_t child;

  rc = pm_initialize(PM_VERIFIED | PM_UNVERIFIED | PM_CAVEAT, &info, NULL, PM_CURRENT);
  if (rc) {
    pm_error("pm_initialize", rc);
    return 1;
  }
  if ((rc = pm_session_create(0, &session)) != 0 ||
      (rc = pm_session_add_events(session, "page-faults:u,page-faults:k", NULL)) != 0) {
    pm_error("pm_session", rc);
    return 1;
  }
  /* Tracepoints need a readable tracefs (root, usually): without, the page faults alone. */
  rc = pm_session_add_events(session, "syscalls:sys_enter_*", NULL);
  if (rc) pm_error("syscalls:sys_enter_* (counting page faults only)", rc);

  if (pipe(go) != 0) return 1;
  child = fork();
  if (child == 0) {
    char byte;
    close(go[1]);
    if (read(go[0], &byte, 1) != 1) _exit(126);
    execvp(command[0], (char *const *)command);
    _exit(127);
  }
  close(go[0]);
  if ((rc = pm_session_add_process(session, child)) != 0 || (rc = pm_session_start(session)) != 0) {
    pm_error("pm_session_start", rc);
    kill(child, SIGKILL);
    waitpid(child, NULL, 0);
    pm_session_destroy(session);
    return 1;
  }
  if (write(go[1], "g", 1) != 1) return 1;
  waitpid(child, &status, 0);
  pm_session_stop(session);

  pm_session_nevents(session, &nevents);
  counts = calloc((size_t)nevents, sizeof *counts);
  if (!counts || (rc = pm_session_read(session, counts, nevents)) != 0) {
    pm_error("pm_session_read", rc);
    return 1;
  }
  printf("%s: %d events, each counted all the time\n", command[2], nevents);
  for (i = 0; i < nevents; ++i) {
    pm_session_event_t event;
    pm_session_event_info(session, i, &event);
    /* The events that counted something, as perf stat lists them. */
    if (counts[i].value == 0) continue;
    printf("%20llu  %s%s\n", (unsigned long long)counts[i].value, event.name,
           counts[i].scaled ? "  (scaled)" : "");
  }
  free(counts);
  pm_session_destroy(session);
  return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
}
