// SPDX-License-Identifier: MIT
// pm_get_group_metrics and pm_evaluate_group_metrics (include/pmapi_metrics.h): the groups'
// derived-metric formulas, which the catalog parses and keeps, offered through the C boundary.
#include <ctype.h>
#include <math.h>

#include <limits>
#include <string>
#include <vector>

#include "api/c_boundary.h"
#include "catalog/catalog.h"
#include "catalog/group_catalog.h"

#pragma GCC visibility push(default)
#include "pmapi_metrics.h"
#pragma GCC visibility pop

using namespace pmapi;

namespace {

bool StartsName(char c) { return isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool ContinuesName(char c) {
  return isalnum(static_cast<unsigned char>(c)) || c == '_' || c == ':' || c == '.' || c == '-';
}

// Whether a formula the catalog parsed names the elapsed time. Its names follow the rules of
// group_formula.h; numbers ("1e9", "0x10") are skipped whole so that no part of one reads as
// a name.
bool UsesTime(const std::string &formula) {
  size_t i = 0;
  while (i < formula.size()) {
    char c = formula[i];
    if (isdigit(static_cast<unsigned char>(c)) || c == '.') {
      while (i < formula.size() &&
             (isalnum(static_cast<unsigned char>(formula[i])) || formula[i] == '.')) {
        ++i;
      }
    } else if (StartsName(c)) {
      size_t start = i;
      while (i < formula.size() && ContinuesName(formula[i])) ++i;
      if (formula.compare(start, i - start, kFormulaTimeName) == 0) return true;
    } else {
      ++i;
    }
  }
  return false;
}

// The descriptors of every listable group, by client id, made once: the strings point into
// the group catalog, which lives until exit, and so do these.
const std::vector<std::vector<pm_metric_t>> &MetricTables() {
  static const std::vector<std::vector<pm_metric_t>> *tables = [] {
    const GroupCatalog &groups = GroupCatalog::Get();
    auto *made = new std::vector<std::vector<pm_metric_t>>(groups.id_limit());
    for (size_t id = 0; id < made->size(); ++id) {
      const ResolvedGroup *group = groups.FindId(static_cast<int>(id));
      if (!group) continue;  // an id between the dense ones and a pinned one: no group
      for (const GroupMetric &metric : group->record.metrics) {
        (*made)[id].push_back(
            pm_metric_t{metric.name.c_str(), metric.formula.c_str(), "", UsesTime(metric.formula)});
      }
    }
    return made;
  }();
  return *tables;
}

// The group, or why not.
Status FindGroup(int group_id, const ResolvedGroup **out) {
  if (!LibraryInitialized()) {
    return Status(Pmapi_NoInit,
                  "call pm_initialize (or pm_init) before asking for a group's "
                  "metrics");
  }
  const GroupCatalog &groups = GroupCatalog::Get();
  if (!groups.load_status().ok()) return groups.load_status();
  *out = groups.FindId(group_id);
  if (!*out) return Status(Pmapi_InvalidGroup, groups.UnknownId(group_id));
  return Status::Ok();
}

// A value a C caller can print: an infinity (a sum that overflowed, say) is no value either.
double Defined(double value) {
  return isfinite(value) ? value : std::numeric_limits<double>::quiet_NaN();
}

}  // namespace

extern "C" int pm_get_group_metrics(int group_id, pm_group_metrics_t *metrics) {
  return Guarded([&] {
    if (!metrics) return Report(Pmapi_InvalidArg, "metrics is NULL");
    const ResolvedGroup *group = nullptr;
    Status status = FindGroup(group_id, &group);
    if (!status.ok()) return Report(status);
    const std::vector<pm_metric_t> &table = MetricTables()[static_cast<size_t>(group_id)];
    metrics->group_id = group_id;
    metrics->members = static_cast<int>(group->members.size());
    metrics->maxmetrics = static_cast<int>(table.size());
    metrics->metrics = table.empty() ? nullptr : table.data();
    return 0;
  });
}

extern "C" int pm_evaluate_group_metrics(int group_id, const long long *counts, int ncounts,
                                         double seconds, double *values, int nvalues) {
  return Guarded([&] {
    if (ncounts < 0 || nvalues < 0) {
      return Report(Pmapi_InvalidArg, "ncounts " + std::to_string(ncounts) + " and nvalues " +
                                          std::to_string(nvalues) + " may not be negative");
    }
    if ((!counts && ncounts > 0) || (!values && nvalues > 0)) {
      return Report(Pmapi_InvalidArg, !counts ? "counts is NULL but ncounts is not 0"
                                              : "values is NULL but nvalues is not 0");
    }
    const ResolvedGroup *group = nullptr;
    Status status = FindGroup(group_id, &group);
    if (!status.ok()) return Report(status);
    // A count not passed is missing: the formulas that read it have no value.
    size_t given = static_cast<size_t>(ncounts) < group->members.size()
                       ? static_cast<size_t>(ncounts)
                       : group->members.size();
    std::vector<double> member_values(counts, counts + given);
    double elapsed = seconds >= 0 ? seconds : std::numeric_limits<double>::quiet_NaN();
    const std::vector<GroupMetric> &metrics = group->record.metrics;
    size_t n = static_cast<size_t>(nvalues) < metrics.size() ? static_cast<size_t>(nvalues)
                                                             : metrics.size();
    for (size_t i = 0; i < n; ++i) {
      values[i] = Defined(metrics[i].compiled.Evaluate(member_values, elapsed));
    }
    return 0;
  });
}
