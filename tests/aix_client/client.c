/* SPDX-License-Identifier: MIT */
/*
 * A C program written the way AIX pmapi clients are (PAPI's AIX substrate, IPM,
 * OpenJ9, hypre; docs/porting.md), with no change for Linux: it indexes
 * list_events[counter][event_id] directly, copies the lists into a fixed
 * 1,024-entry table, walks every group's events[] through the lists, programs a
 * group by the index it found it at, calls pm_init with two arguments (with
 * PM_GET_GROUPS, and hypre's filter 0) and pm_initialize with every processor
 * type. Any broken convention reads past an array: under ASan that is a crash,
 * and the explicit checks make a plain build exit 1 too.
 */
#include <stdio.h>
#include <string.h>

#include <pmapi.h>

#define NATIVE_TABLE_SIZE 1024
#define ALL_STATUSES (PM_VERIFIED | PM_UNVERIFIED | PM_CAVEAT)

static char native_table[NATIVE_TABLE_SIZE][64];
static int failures;

static void fail(const char *what, int value) {
  fprintf(stderr, "aix_client: %s (%d)\n", what, value);
  ++failures;
}

/* PAPI: one table indexed by event id, filled from every counter's list. */
static void copy_lists(const pm_info_t *info) {
  int counter, i;
  for (counter = 0; counter < info->maxpmcs; ++counter) {
    if (info->maxevents[counter] > NATIVE_TABLE_SIZE) fail("list longer than 1,024", counter);
    for (i = 0; i < info->maxevents[counter] && i < NATIVE_TABLE_SIZE; ++i) {
      int id = info->list_events[counter][i].event_id;
      if (id != i) fail("event id is not its index", id);
      if (id < 0 || id >= NATIVE_TABLE_SIZE) continue;
      strncpy(native_table[id], info->list_events[counter][i].short_name, 63);
    }
  }
}

/* OpenJ9/IPM: every counter of every group looked up in that counter's list. */
static int walk_groups(const pm_info2_t *info, const pm_groups_info_t *groups, const char *want) {
  int g, counter, found = -1;
  for (g = 0; g < groups->maxgroups; ++g) {
    const pm_groups_t *group = &groups->event_groups[g];
    if (group->group_id != g) fail("group id is not its index", group->group_id);
    for (counter = 0; counter < info->maxpmcs; ++counter) {
      int ev = group->events[counter];
      if (ev < 0 || ev >= info->maxevents[counter]) {
        fail("group event outside its counter's list", ev);
        continue;
      }
      if (info->list_events[counter][ev].event_id != ev) fail("group event id mismatch", ev);
    }
    if (strcmp(groups->event_groups[group->group_id].short_name, want) == 0) found = g;
  }
  return found;
}

int main(void) {
  pm_info_t info;
  pm_info2_t info2;
  pm_groups_info_t groups;
  pm_prog_t prog;
  pm_data_t data;
  int rc, proctype, group;

  /* AIX 5.1 form, with PM_GET_GROUPS in the filter (no third argument). */
  rc = pm_init(ALL_STATUSES | PM_GET_GROUPS, &info);
  if (rc)
    fail("pm_init with two arguments", rc);
  else
    copy_lists(&info);
  rc = pm_init(0, &info); /* hypre */
  if (rc) fail("pm_init(0, &info)", rc);
  if (strcmp(native_table[0], "PM_CYC") != 0) fail("event 0 is not PM_CYC", 0);

  for (proctype = PM_CURRENT; proctype <= PM_MAXPROCTYPE; ++proctype) {
    rc = pm_initialize(ALL_STATUSES | PM_GET_GROUPS, &info2, &groups, proctype);
    if (rc != 0 && rc != Pmapi_InvalidProcType)
      fail("pm_initialize with a processor type", proctype);
  }

  rc = pm_initialize(ALL_STATUSES | PM_GET_GROUPS, &info2, &groups, PM_CURRENT);
  if (rc) {
    fail("pm_initialize(PM_CURRENT)", rc);
    return 1;
  }
  group = walk_groups(&info2, &groups, "pm_sw_basic");
  if (group < 0) {
    fail("pm_sw_basic not listed", 0);
    return 1;
  }

  /* Program the group by the index it was found at. */
  memset(&prog, 0, sizeof prog);
  prog.mode.b.user = 1;
  prog.mode.b.kernel = 1;
  prog.mode.b.is_group = 1;
  prog.events[0] = group;
  rc = pm_set_program_mythread(&prog);
  if (rc == 0) rc = pm_start_mythread();
  if (rc == 0) rc = pm_stop_mythread();
  if (rc == 0) rc = pm_get_data_mythread(&data);
  if (rc)
    fail("counting group pm_sw_basic by its index", rc);
  else if (data.accu[0] <= 0)
    fail("task-clock did not count", 0);
  pm_delete_program_mythread();

  printf("aix_client: %d events per counter, %d groups, pm_sw_basic is group %d: %s\n",
         info2.maxevents[0], groups.maxgroups, group, failures ? "FAILED" : "ok");
  return failures ? 1 : 0;
}
