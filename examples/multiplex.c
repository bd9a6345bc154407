/* SPDX-License-Identifier: MIT */
/*
 * Counter multiplexing: more event sets than count at once. The calling thread programs two
 * sets with pm_set_program_mythread_mx; the library switches them every 10 ms, so each set
 * counts about half of the time, and accu_data * total_time / accu_time estimates what the set
 * would have counted over the whole run. Then a multi-mode program (_mm) counts the same
 * events in user mode and in kernel mode, one mode per set.
 * pm_get_data*_mx allocates accu_set and pm_get_program*_mx/_mm allocate events_set/prog_set:
 * the caller frees them with free().
 */
#define _GNU_SOURCE
#include <pmapi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
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

static double seconds(const timebasestruct_t *tb) {
  timebasestruct_t t = *tb;
  time_base_to_time(&t, TIMEBASE_SZ);
  return t.tb_high + t.tb_low / 1e9;
}

/* About `ms` milliseconds of getppid calls; returns how many. */
static long busy_getppid(int ms) {
  struct timespec start, now;
  long calls = 0;
  clock_gettime(CLOCK_MONOTONIC, &start);
  do {
    int i;
    for (i = 0; i < 100; ++i) syscall(SYS_getppid);
    calls += 100;
    clock_gettime(CLOCK_MONOTONIC, &now);
  } while ((now.tv_sec - start.tv_sec) * 1000 + (now.tv_nsec - start.tv_nsec) / 1000000 < ms);
  return calls;
}

static int multiplexed(const pm_info2_t *info) {
  pm_events_prog_t sets[2];
  pm_prog_mx_t prog;
  pm_data_mx_t data;
  double total = 0;
  long calls;
  int i, k, rc;

  for (k = 0; k < 2; ++k)
    for (i = 0; i < MAX_COUNTERS; ++i) sets[k][i] = COUNT_NOTHING;
  sets[0][0] = event_id(info, "syscalls:sys_enter_getppid");
  sets[1][0] = event_id(info, "syscalls:sys_enter_getppid");
  sets[1][1] = event_id(info, "task-clock");
  memset(&prog, 0, sizeof prog);
  prog.mode.w = PM_USER | PM_KERNEL | PM_COUNT;
  prog.slice_duration = 10; /* ms */
  prog.nb_events_prog = 2;
  prog.events_set = sets;
  rc = pm_set_program_mythread_mx(&prog);
  if (rc) {
    pm_error("pm_set_program_mythread_mx", rc);
    return 1;
  }
  calls = busy_getppid(300);
  pm_stop_mythread();
  rc = pm_get_data_mythread_mx(&data);
  if (rc) {
    pm_error("pm_get_data_mythread_mx", rc);
    return 1;
  }
  for (k = 0; k < data.nb_accu_mx; ++k) total += seconds(&data.accu_set[k].accu_time);
  printf("%ld getppid calls, %d complete rounds of %d sets\n", calls, data.nb_mx_round,
         data.nb_accu_mx);
  for (k = 0; k < data.nb_accu_mx; ++k) {
    const pm_accu_mx_t *set = &data.accu_set[k];
    const double ran = seconds(&set->accu_time);
    printf("set %d: counted %.3f s (%.0f%%): getppid %lld, estimate %.0f\n", k, ran,
           100 * ran / total, set->accu_data[0], ran > 0 ? set->accu_data[0] * total / ran : 0);
    if (set->accu_data[0] <= 0) rc = 1; /* each set counted in its slices */
  }
  free(data.accu_set); /* the library allocated it */
  pm_delete_program_mythread();
  return rc;
}

static int multi_mode(const pm_info2_t *info) {
  pm_prog_t sets[2];
  pm_prog_mm_t prog, got;
  int k, i, rc;

  for (k = 0; k < 2; ++k) {
    memset(&sets[k], 0, sizeof sets[k]);
    for (i = 0; i < MAX_COUNTERS; ++i) sets[k].events[i] = COUNT_NOTHING;
    sets[k].events[0] = event_id(info, "task-clock");
  }
  sets[0].mode.w = PM_USER | PM_COUNT; /* count (and proctree) come from the first set */
  sets[1].mode.w = PM_KERNEL;
  prog.slice_duration = 0; /* the default slice */
  prog.nb_set_prog = 2;
  prog.prog_set = sets;
  rc = pm_set_program_mythread_mm(&prog);
  if (rc) {
    pm_error("pm_set_program_mythread_mm", rc);
    return 1;
  }
  rc = pm_get_program_mythread_mm(&got);
  if (rc) {
    pm_error("pm_get_program_mythread_mm", rc);
    return 1;
  }
  printf("multi-mode: %d sets, %d ms slices, set 1 counts %s mode\n", got.nb_set_prog,
         got.slice_duration, got.prog_set[1].mode.b.kernel ? "kernel" : "user");
  free(got.prog_set); /* the library allocated it */
  pm_delete_program_mythread();
  return 0;
}

int main(void) {
  pm_info2_t info;
  int rc = pm_initialize(PM_VERIFIED | PM_CAVEAT, &info, NULL, PM_CURRENT);
  if (rc) {
    pm_error("pm_initialize", rc);
    return 1;
  }
  return multiplexed(&info) || multi_mode(&info);
}
