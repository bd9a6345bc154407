/* SPDX-License-Identifier: MIT */
/*
 * Counting with NetBSD's <sys/pmc.h> on Linux: configure a counter, start it,
 * read this process's count, then let a child work and read what it added to
 * the accumulated (exited children's) value.
 *
 *   cc netbsd_count.c $(pkg-config --cflags --libs pmc)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <pmc_events.h>
#include <sys/pmc.h>

static void work(long calls) {
  for (long i = 0; i < calls; ++i) syscall(SYS_getppid);
}

int main(void) {
  int ncounters = 0;
  if (pmc_get_info(0, PMC_INFO_NCOUNTERS, &ncounters) != 0) {
    perror("pmc_get_info");
    return 1;
  }
  printf("%d counters\n", ncounters);

  /* The getppid tracepoint counts exactly; task-clock (ns) works without
   * tracefs mounted. */
  const char *event = "syscalls:sys_enter_getppid";
  struct pmc_counter_cfg cfg;
  memset(&cfg, 0, sizeof cfg);
  if (pmc_event_lookup(event, &cfg.event_id) != 0) {
    event = "task-clock";
    if (pmc_event_lookup(event, &cfg.event_id) != 0) {
      fprintf(stderr, "neither event is in the catalog\n");
      return 1;
    }
  }
  if (pmc_control(0, PMC_OP_CONFIGURE, &cfg) != 0 || pmc_control(0, PMC_OP_START, NULL) != 0) {
    fprintf(stderr, "cannot count %s: %s\n", event, strerror(errno));
    return 1;
  }

  work(1000);
  uint64_t mine = 0;
  pmc_get_info(0, PMC_INFO_COUNTER_VALUE, &mine);
  printf("%s: this process %" PRIu64 "\n", event, mine);

  pid_t child = fork();
  if (child == 0) {
    /* The child's counter starts at zero and is already running. */
    work(500);
    _exit(0);
  }
  int status;
  waitpid(child, &status, 0);

  uint64_t children = 0;
  pmc_get_info(0, PMC_INFO_ACCUMULATED_COUNTER_VALUE, &children);
  printf("%s: exited children %" PRIu64 "\n", event, children);
  pmc_control(0, PMC_OP_STOP, NULL);
  return 0;
}
