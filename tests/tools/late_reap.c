/*
 * An LD_PRELOAD shim that makes pmcount -I meet, every time, the race seen once in 150 runs
 * (issue 26): the command exits just after the wait loop last found it running, and the tick
 * that follows reads counters that have stopped. pmcount's loop looks for the exit first
 * (wait4 with WNOHANG), then ticks when an interval is due, and sleeps in sigtimedwait until
 * the next tick or signal. The shim hides an exited child from every look until a
 * sigtimedwait has timed out (a tick is due) and from the look just after it; the look after
 * that tick reaps it. Nothing else changes: the child has exited either way, only pmcount
 * learns it one tick later, as it does when the race strikes.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>

static pid_t exited_child;  /* the child whose exit is being hidden, 0 before */
static int tick_due;        /* a sigtimedwait timed out since the exit was first hidden */
static int hid_before_tick; /* the look just before that tick was hidden too */

pid_t wait4(pid_t pid, int *status, int options, struct rusage *usage) {
  pid_t (*real)(pid_t, int *, int, struct rusage *) =
      (pid_t(*)(pid_t, int *, int, struct rusage *))dlsym(RTLD_NEXT, "wait4");
  if ((options & WNOHANG) && pid > 0 && !hid_before_tick) {
    siginfo_t info;
    memset(&info, 0, sizeof info);
    /* WNOWAIT: look without reaping, so that a later real call still can. */
    if (waitid(P_PID, (id_t)pid, &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == pid) {
      exited_child = pid;
      if (tick_due) hid_before_tick = 1;
      return 0;
    }
  }
  return real(pid, status, options, usage);
}

int sigtimedwait(const sigset_t *set, siginfo_t *info, const struct timespec *timeout) {
  int (*real)(const sigset_t *, siginfo_t *, const struct timespec *) = (int (*)(
      const sigset_t *, siginfo_t *, const struct timespec *))dlsym(RTLD_NEXT, "sigtimedwait");
  struct timespec before, after;
  clock_gettime(CLOCK_MONOTONIC, &before);
  const int sig = real(set, info, timeout);
  const int saved = errno;
  clock_gettime(CLOCK_MONOTONIC, &after);
  /* A tick is due when the wait timed out, and also when it ended by a signal (the SIGCHLD)
   * no sooner than its timeout: on a loaded machine pmcount may run again only then, and
   * tick at once without a timeout. Missing that, the shim hid the exit through one tick
   * too many, and pmcount printed an empty interval that a real late reap never makes. */
  const long long waited = (after.tv_sec - before.tv_sec) * 1000000000LL +
                           (after.tv_nsec - before.tv_nsec);
  const long long asked = timeout ? timeout->tv_sec * 1000000000LL + timeout->tv_nsec : -1;
  if (exited_child && ((sig < 0 && saved == EAGAIN) || (asked >= 0 && waited >= asked))) {
    tick_due = 1;
  }
  errno = saved;
  return sig;
}
