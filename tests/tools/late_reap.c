/* SPDX-License-Identifier: MIT */
/*
 * An LD_PRELOAD shim that makes pmcount -I meet, every time, the race seen once in 150 runs
 * (issue 26): the command exits just after the wait loop last found it running, so the next
 * tick reads counters that have already stopped, and only the look after that tick reaps the
 * command. The shim hides an exited child from pmcount's looks (wait4 with WNOHANG) until
 * pmcount has written an interval after the exit was first hidden: that write is the tick
 * that read the final counts. The look after it reaps. Nothing else changes: the child has
 * exited either way, only pmcount learns it one tick later, as it does when the race strikes.
 * Keyed to the write rather than to the loop's sleeps, it holds however late the ticks run on
 * a loaded machine (a late loop ticks without sleeping).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

static pid_t hidden_child; /* the exited child being hidden, 0 before */
static int ticked;         /* an interval was written since it was first hidden */

pid_t wait4(pid_t pid, int *status, int options, struct rusage *usage) {
  pid_t (*real)(pid_t, int *, int, struct rusage *) =
      (pid_t(*)(pid_t, int *, int, struct rusage *))dlsym(RTLD_NEXT, "wait4");
  if ((options & WNOHANG) && pid > 0 && !ticked) {
    siginfo_t info;
    memset(&info, 0, sizeof info);
    /* WNOWAIT: look without reaping, so that a later real call still can. */
    if (waitid(P_PID, (id_t)pid, &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == pid) {
      hidden_child = pid;
      return 0;
    }
  }
  return real(pid, status, options, usage);
}

ssize_t write(int fd, const void *data, size_t size) {
  ssize_t (*real)(int, const void *, size_t) =
      (ssize_t(*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
  if (hidden_child) ticked = 1;
  return real(fd, data, size);
}
