/* SPDX-License-Identifier: MIT */
/* The workloads' "wait" mode: say "ready" on stdout, then wait for SIGUSR1, so that a test can
 * attach to a process that has not yet started its work (and knows when to send the signal). */
#pragma once

#include <signal.h>
#include <stdio.h>

static inline void say_ready_and_wait_for_usr1(void) {
  sigset_t usr1;
  int signal_number = 0;
  sigemptyset(&usr1);
  sigaddset(&usr1, SIGUSR1);
  sigprocmask(SIG_BLOCK, &usr1, NULL);
  printf("ready\n");
  fflush(stdout);
  sigwait(&usr1, &signal_number);
}
