/* SPDX-License-Identifier: MIT */
/* pmapi_metrics.h: the derived metrics of libpmapi's event groups (a
 * libpmapi extension; AIX's pmapi has nothing like it).
 *
 * A group of the groups/ tables may carry formulas over its members' counts
 * and the elapsed time ("IPC = PM_INST_CMPL / PM_CYC"). These two calls give
 * any client -- a tool, libhpm, a program of its own -- the formulas of the
 * group it programmed with mode.b.is_group, and their values from its counts:
 *
 *   pm_group_metrics_t m;
 *   pm_get_group_metrics(group_id, &m);            names, formulas, units
 *   pm_get_data_mythread(&data);                   counts: accu[0..m.members-1]
 *   pm_evaluate_group_metrics(group_id, data.accu, m.members, seconds,
 *                             values, m.maxmetrics);
 *
 * Both need pm_initialize (or pm_init) first, and take the group ids it lists
 * (pm_groups_t.group_id). A metric that has no value -- a division by zero, a
 * count not passed, the elapsed time not given -- is NaN: test it with isnan()
 * and print "n/a". Every return is 0 or a Pmapi_* code (pm_strerror says what
 * was wrong). docs/catalog.md, "Derived metrics", has the details.
 * Include it after <pmapi.h> or instead of it; link -lpmapi. */
#ifndef PMAPI_METRICS_H
#define PMAPI_METRICS_H

#include <pmapi.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One derived metric. The strings belong to the library and stay valid
 * until the process exits. */
typedef struct {
  const char *name;    /* "IPC", unique within its group */
  const char *formula; /* "PM_INST_CMPL / PM_CYC", as the group table writes it */
  const char *unit;    /* the metric's unit, or "" when the table names none
                          (the group tables have no unit field yet: "" for all) */
  int uses_time;       /* 1 if the formula reads the elapsed seconds ("time") */
} pm_metric_t;

/* The metrics of one group. */
typedef struct {
  int group_id;               /* as passed */
  int members;                /* counts the formulas read: member i on counter i */
  int maxmetrics;             /* entries of metrics[]; 0 for a group with none */
  const pm_metric_t *metrics; /* library storage, valid until exit; NULL if none */
} pm_group_metrics_t;

/* Fills *metrics with the derived metrics of group `group_id`.
 * Pmapi_NoInit before pm_initialize/pm_init, Pmapi_InvalidArg for a NULL
 * pointer, Pmapi_InvalidGroup for an id this machine does not list, and
 * Pmapi_BadCatalog when a groups/ table failed to load. On error *metrics
 * is left as it was. */
int pm_get_group_metrics(int group_id, pm_group_metrics_t *metrics);

/* Evaluates the metrics of group `group_id` from counts[0..ncounts-1]
 * (member i's count at index i, as accu[] holds them after a program with
 * mode.b.is_group) and the elapsed seconds (negative: not known). Writes
 * the first nvalues metrics (fewer if the group has fewer) into values[], in
 * the order of pm_get_group_metrics; a metric without a value is NaN, never
 * an infinity. counts may be NULL when ncounts is 0, values when nvalues is 0.
 * The same errors as pm_get_group_metrics, and Pmapi_InvalidArg for a NULL
 * array with a positive length or a negative length. */
int pm_evaluate_group_metrics(int group_id, const long long *counts, int ncounts, double seconds,
                              double *values, int nvalues);

#ifdef __cplusplus
}
#endif

#endif /* PMAPI_METRICS_H */
