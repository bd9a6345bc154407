/* SPDX-License-Identifier: MIT */
/* A workload with exactly known tracepoint counts, for pmcount's tests and benchmark.
 *
 *   workload getppid N             N getppid() calls
 *   workload children K N          K child processes, each N getppid() calls (none here)
 *   workload threads K N           K threads, each N getppid() calls (none in main)
 *   workload exit STATUS           exits with STATUS after 1 getppid() call
 *   workload signal NAME           1 getppid() call, then raises SIGNAME (INT, TERM, ...)
 *   workload wait-signal N         N getppid() calls, prints "ready", then waits for a signal
 *                                  (SIGINT/SIGTERM: 1 more getppid() call, exit 3)
 *   workload spin MS               busy for MS milliseconds (for -I and -a tests)
 *
 * getppid is used because nothing else in a process calls it: syscalls:sys_enter_getppid
 * counts exactly the calls made here. */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void calls(long n) {
  for (long i = 0; i < n; ++i) syscall(SYS_getppid); /* never cached by libc */
}

static void *thread_main(void *arg) {
  calls(*(long *)arg);
  return NULL;
}

static volatile sig_atomic_t got_signal;
static void on_signal(int sig) { got_signal = sig; }

static int usage(void) {
  fprintf(stderr,
          "usage: workload getppid N | children K N | threads K N | exit STATUS |"
          " signal NAME | wait-signal N | spin MS\n");
  return 2;
}

int main(int argc, char **argv) {
  if (argc < 3) return usage();
  const char *mode = argv[1];
  long a = atol(argv[2]);
  long b = argc > 3 ? atol(argv[3]) : 0;
  if (strcmp(mode, "getppid") == 0) {
    calls(a);
    return 0;
  }
  if (strcmp(mode, "children") == 0) {
    for (long k = 0; k < a; ++k) {
      pid_t pid = fork();
      if (pid == 0) {
        calls(b);
        _exit(0);
      }
      if (pid < 0) return 1;
    }
    while (wait(NULL) > 0) {
    }
    return 0;
  }
  if (strcmp(mode, "threads") == 0) {
    pthread_t threads[64];
    if (a > 64) return usage();
    for (long k = 0; k < a; ++k) pthread_create(&threads[k], NULL, thread_main, &b);
    for (long k = 0; k < a; ++k) pthread_join(threads[k], NULL);
    return 0;
  }
  if (strcmp(mode, "exit") == 0) {
    calls(1);
    return (int)a;
  }
  if (strcmp(mode, "signal") == 0) {
    calls(1);
    int sig = strcmp(argv[2], "INT") == 0    ? SIGINT
              : strcmp(argv[2], "TERM") == 0 ? SIGTERM
              : strcmp(argv[2], "KILL") == 0 ? SIGKILL
                                             : SIGSEGV;
    signal(sig, SIG_DFL);
    raise(sig);
    return 1;
  }
  if (strcmp(mode, "wait-signal") == 0) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_signal;
    sigaction(SIGINT, &action, NULL);
    sigaction(SIGTERM, &action, NULL);
    calls(a);
    printf("ready\n");
    fflush(stdout);
    while (!got_signal) pause();
    calls(1);
    return 3;
  }
  if (strcmp(mode, "spin") == 0) {
    struct timespec start, now;
    clock_gettime(CLOCK_MONOTONIC, &start);
    do {
      clock_gettime(CLOCK_MONOTONIC, &now);
    } while ((now.tv_sec - start.tv_sec) * 1000 + (now.tv_nsec - start.tv_nsec) / 1000000 < a);
    return 0;
  }
  return usage();
}
