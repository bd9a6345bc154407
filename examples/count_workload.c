/* SPDX-License-Identifier: MIT */
/*
 * The main job: say what this machine can count, then count a real workload
 * (sorting a few million numbers) on the calling thread with the events that
 * count here, hardware ones when the machine has a PMU.
 *
 *   build/examples/count_workload
 */
#include <pmapi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const pm_events2_t *find_event(const pm_info2_t *info, const char *name) {
  int i;
  for (i = 0; i < info->maxevents[0]; ++i) {
    if (strcmp(info->list_events[0][i].short_name, name) == 0) return &info->list_events[0][i];
  }
  return NULL;
}

static int compare_ints(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

/* The workload: fill and sort 4 million pseudo-random ints. */
static long long sort_numbers(void) {
  const size_t n = 4u << 20;
  int *numbers = malloc(n * sizeof *numbers);
  unsigned int seed = 12345u;
  size_t i;
  long long checksum = 0;
  if (!numbers) return -1;
  for (i = 0; i < n; ++i) {
    seed = seed * 1103515245u + 12345u;
    numbers[i] = (int)(seed >> 1);
  }
  qsort(numbers, n, sizeof *numbers, compare_ints);
  for (i = 0; i < n; i += 4096) checksum += numbers[i] % 1000;
  free(numbers);
  return checksum;
}

int main(void) {
  static const char *wanted[] = {"PM_CYC",      "PM_INST_CMPL",     "task-clock",
                                 "page-faults", "context-switches", "syscalls:sys_enter_mmap"};
  pm_info2_t info;
  pm_prog_t prog;
  pm_data_t data;
  const char *chosen[MAX_COUNTERS];
  int counted = 0, verified = 0, unverified = 0, caveat = 0, hardware_missing = 0;
  int i, rc;
  long long checksum;

  rc = pm_initialize(PM_VERIFIED | PM_UNVERIFIED | PM_CAVEAT, &info, NULL, PM_CURRENT);
  if (rc != 0) {
    pm_error("pm_initialize", rc);
    return 1;
  }
  for (i = 0; i < info.maxevents[0]; ++i) {
    const pm_status_t status = info.list_events[0][i].status;
    verified += status.b.verified;
    unverified += status.b.unverified;
    caveat += status.b.caveat;
  }
  printf("processor: %s\n", info.proc_name);
  printf("events: %d verified (the kernel counts them here), %d caveat, %d unverified\n", verified,
         caveat, unverified);

  memset(&prog, 0, sizeof prog);
  for (i = 0; i < MAX_COUNTERS; ++i) prog.events[i] = COUNT_NOTHING;
  for (i = 0; i < (int)(sizeof wanted / sizeof wanted[0]); ++i) {
    const pm_events2_t *event = find_event(&info, wanted[i]);
    if (!event) continue;
    if (!event->status.b.verified && !event->status.b.caveat) {
      hardware_missing = 1;
      continue;
    }
    chosen[counted] = event->short_name;
    prog.events[counted++] = event->event_id;
  }
  if (hardware_missing) {
    printf(
        "note: no hardware PMU here (a VM without one?): cycles and instructions are not "
        "counted; software events and tracepoints are\n");
  }
  prog.mode.w = PM_USER | PM_KERNEL;

  rc = pm_set_program_mythread(&prog);
  if (rc == 0) rc = pm_start_mythread();
  if (rc != 0) {
    pm_error("counting the workload", rc);
    return 1;
  }
  checksum = sort_numbers();
  rc = pm_stop_mythread();
  if (rc == 0) rc = pm_get_data_mythread(&data);
  if (rc != 0) {
    pm_error("reading the counts", rc);
    return 1;
  }
  printf("\nworkload: sort 4,194,304 ints (checksum %lld)\n", checksum);
  for (i = 0; i < counted; ++i) printf("  %20lld  %s\n", data.accu[i], chosen[i]);
  pm_delete_program_mythread();
  return 0;
}
