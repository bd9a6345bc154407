/* SPDX-License-Identifier: MIT */
/* <pmapi_metrics.h> compiles alone, strictly, in C and C++ (also built as
 * C++ by tests/hpm/CMakeLists.txt), and its calls have the documented types. */
#include <pmapi_metrics.h>

typedef int (*get_fn)(int, pm_group_metrics_t *);
typedef int (*evaluate_fn)(int, const long long *, int, double, double *, int);

int metrics_header_compiles(void);
int metrics_header_compiles(void) {
  get_fn get = pm_get_group_metrics;
  evaluate_fn evaluate = pm_evaluate_group_metrics;
  pm_group_metrics_t info;
  const pm_metric_t *first;
  info.metrics = 0;
  first = info.metrics;
  return (get != 0) + (evaluate != 0) + (first == 0);
}
