// SPDX-License-Identifier: MIT
#include "set_results.h"

#include <math.h>
#include <stdio.h>

#include <algorithm>

#include "catalog/group_catalog.h"

namespace aix {
namespace {

using tools::Sample;

std::string FormulaOf(const tools::MetricDef &metric) {
  const pmapi::ResolvedGroup *group = pmapi::GroupCatalog::Get().FindName(metric.group);
  if (!group) return "";
  for (const pmapi::GroupMetric &m : group->record.metrics) {
    if (m.name == metric.name) return m.formula;
  }
  return "";
}

bool Wanted(const std::vector<std::string> &metrics, const std::string &name) {
  if (metrics.empty()) return true;
  for (const std::string &m : metrics) {
    if (m == name) return true;
  }
  return false;
}

// The sum over targets of `samples[first .. first + targets)`.
Sample Sum(const std::vector<Sample> &samples, size_t first, size_t targets) {
  Sample total;
  for (size_t t = first; t < first + targets && t < samples.size(); ++t) {
    const Sample &s = samples[t];
    if (s.rc != 0 && s.rc != Pmapi_Multiplexed) {
      if (total.rc == 0) total.rc = s.rc;
      continue;
    }
    // A program's sample has MAX_COUNTERS values, a session's one per event.
    if (total.values.size() < s.values.size()) total.values.resize(s.values.size());
    for (size_t c = 0; c < s.values.size(); ++c) total.values[c] += s.values[c];
    total.enabled_ns = std::max(total.enabled_ns, s.enabled_ns);
    total.running_ns = std::max(total.running_ns, s.running_ns);
  }
  return total;
}

std::string Reason(int rc) {
  std::string text = pm_strerror("x", rc);
  if (text.compare(0, 3, "x: ") == 0) text.erase(0, 3);
  return text;
}

// One set's lines from its selection, its events' counters (-1: left out, with `reasons`) and
// its summed sample.
SetResult Result(const tools::Selection &selection, const std::vector<int> &counters,
                 const std::vector<std::string> &reasons, const Sample &sample, double seconds,
                 const Prepared &prepared) {
  SetResult set;
  if (selection.group) set.group = selection.group->record.short_name;
  set.seconds = seconds;
  std::vector<double> values(selection.events.size(), 0);
  std::vector<bool> counted(selection.events.size(), false);
  for (size_t e = 0; e < selection.events.size(); ++e) {
    EventLine line;
    line.name = selection.events[e].name;
    line.long_name = selection.events[e].entry->long_name;
    const int counter = counters[e];
    if (counter < 0) {
      line.counted = false;
      line.reason = reasons[e].empty() ? "not programmed" : reasons[e];
    } else if (sample.rc != 0 && sample.rc != Pmapi_Multiplexed) {
      line.counted = false;
      line.reason = Reason(sample.rc);
    } else {
      line.value = sample.values[counter];
      values[e] = static_cast<double>(line.value);
      counted[e] = true;
    }
    set.events.push_back(line);
  }
  for (const tools::MetricDef &metric : selection.metrics) {
    if (!Wanted(prepared.metrics, metric.name)) continue;
    MetricLine line;
    line.name = metric.name;
    line.formula = FormulaOf(metric);
    std::vector<double> members;
    bool complete = true;
    for (size_t index : metric.events) {
      complete = complete && counted[index];
      members.push_back(values[index]);
    }
    line.value = complete ? metric.formula->Evaluate(members, seconds) : NAN;
    set.metrics.push_back(line);
  }
  return set;
}

// Every set's lines from one reading; `targets` samples per set (CPUs, or 1 for a command).
}  // namespace

std::vector<SetResult> Results(const Prepared &prepared, const Programs &programs,
                               const std::vector<Sample> &samples, size_t targets,
                               double wall_seconds) {
  std::vector<SetResult> sets;
  if (!programs.multiplexed) {
    const Sample total = Sum(samples, 0, targets);
    sets.push_back(Result(prepared.sets[0], programs.plan.counter_of_event, programs.plan.reasons,
                          total, wall_seconds, prepared));
    return sets;
  }
  for (size_t k = 0; k < prepared.sets.size(); ++k) {
    const Sample total = Sum(samples, k * targets, targets);
    const double seconds = static_cast<double>(total.running_ns) / 1e9;
    sets.push_back(Result(prepared.sets[k], programs.mx.counters[k], programs.mx.sets[k].reasons,
                          total, seconds, prepared));
  }
  return sets;
}

HpmReport BaseReport(const HpmOptions &options, const Prepared &prepared, bool multiplexed) {
  HpmReport report;
  report.mode = prepared.per_event ? "per-event" : tools::ModeName(prepared.mode);
  report.notes = prepared.notes;
  report.multiplexed = multiplexed;
  report.detailed = options.detailed;
  report.formulas = options.extended;
  report.metrics = !options.microseconds;
  return report;
}

// Builds the programs; returns "" or why the sets cannot be counted together.
std::string MakePrograms(const Prepared &prepared, Programs *programs) {
  if (prepared.sets.size() == 1) {
    programs->plan = tools::MakeSessionPlan(prepared.sets[0], prepared.mode);
    return "";
  }
  programs->multiplexed = true;
  return tools::MakeMultiplexPlan(prepared.sets, prepared.mode, prepared.slice_ms, &programs->mx);
}

int ArmPrograms(Programs *programs, const char *tool, const char *set_call,
                const std::function<int(const pm_prog_mx_t &)> &count_mx,
                const tools::SessionPlaces &places, std::unique_ptr<tools::Counting> *counting) {
  const std::string call =
      programs->multiplexed ? std::string(set_call) + "_mx" : std::string("pm_session_open");
  const int rc = programs->multiplexed
                     ? count_mx(programs->mx.prog)
                     : tools::CountWithSession(&programs->plan, places, /*on=*/true, counting);
  if (rc != 0) fprintf(stderr, "%s: %s\n", tool, pm_strerror(call.c_str(), rc));
  return rc;
}

std::string EstimatesNote(const std::vector<Sample> &samples) {
  for (const Sample &sample : samples) {
    if (sample.rc != 0) continue;
    for (size_t e = 0; e < sample.running_of.size() && e < sample.enabled_of.size(); ++e) {
      if (sample.running_of[e] < sample.enabled_of[e]) {
        return "the hardware events did not fit the counters at once and took turns: their "
               "counts are estimates, scaled from the time each was on a counter";
      }
    }
  }
  return "";
}

}  // namespace aix
