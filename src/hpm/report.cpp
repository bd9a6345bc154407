// SPDX-License-Identifier: MIT
// Writing the per-task report, as text for people and JSON for scripts.
#include "report.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "json.h"
#include "metrics.h"

namespace hpm {
namespace {

double Seconds(long long ns) { return static_cast<double>(ns) / 1e9; }

using tools::JsonString;

bool Used(const Section &s) { return s.described.load() == 2; }

// A metric without a value (division by zero, a missing count) reads "n/a" in the text and
// null in the JSON: never "nan" or "inf".
std::string MetricText(double value) {
  if (!isfinite(value)) return "n/a";
  char buf[32];
  snprintf(buf, sizeof buf, "%.6g", value);
  return buf;
}

std::string MetricJson(double value) { return tools::JsonNumber(value, 15); }

void WriteMetricsText(FILE *f, const EventSet &ev, const Section &s) {
  if (ev.num_metrics == 0) return;
  std::vector<double> inclusive = EvaluateMetrics(ev, s.inclusive, s.wall_ns.load());
  std::vector<double> exclusive = EvaluateMetrics(ev, s.exclusive, s.exclusive_wall_ns.load());
  fprintf(f, "  %-40s %20s %20s\n", "Derived metric", "Inclusive", "Exclusive");
  for (int m = 0; m < ev.num_metrics; ++m) {
    const size_t k = static_cast<size_t>(m);
    fprintf(f, "  %-40s %20s %20s\n", ev.metrics[m].name, MetricText(inclusive[k]).c_str(),
            MetricText(exclusive[k]).c_str());
  }
}

void WriteMetricsJson(FILE *f, const EventSet &ev, const char *key,
                      const std::vector<double> &values) {
  fprintf(f, ",\n     %s: {", JsonString(key).c_str());
  for (int m = 0; m < ev.num_metrics; ++m) {
    fprintf(f, "%s%s: %s", m ? ", " : "", JsonString(ev.metrics[m].name).c_str(),
            MetricJson(values[static_cast<size_t>(m)]).c_str());
  }
  fprintf(f, "}");
}

void WriteText(FILE *f, const Run &run) {
  const EventSet &ev = run.events;
  fprintf(f, "libhpm report (libpmapi) for program %s, task %d, pid %ld\n", run.program.c_str(),
          run.task_id, static_cast<long>(getpid()));
  fprintf(f, "Events (%s): %s\n", ev.source.c_str(), ev.description.c_str());
  fprintf(f, "Wall time from hpmInit to hpmTerminate: %.6f s\n",
          Seconds(run.terminate_ns - run.init_ns));
  if (ev.num_metrics > 0) {
    fprintf(f, "Derived metrics (the group's formulas; \"time\" is the section's wall time):\n");
    for (int m = 0; m < ev.num_metrics; ++m) {
      const pm_metric_t &metric = ev.metrics[m];
      fprintf(f, "  %s = %s%s%s%s\n", metric.name, metric.formula, *metric.unit ? " [" : "",
              metric.unit, *metric.unit ? "]" : "");
    }
  }
  for (int id = 0; id < run.num_sections; ++id) {
    const Section &s = run.sections[id];
    if (!Used(s)) continue;
    fprintf(f, "\nSection %d: %s\n", id, s.label.c_str());
    // A section only ever stopped by the stop of an enclosing one has no stop line.
    char lines[64];
    if (s.stop_line.load() > 0) {
      snprintf(lines, sizeof lines, "lines %d to %d", s.start_line, s.stop_line.load());
    } else {
      snprintf(lines, sizeof lines, "line %d", s.start_line);
    }
    fprintf(f, "  Where:      %s, %s%s\n", s.file.empty() ? "?" : s.file.c_str(), lines,
            s.threaded.load() ? " (hpmTstart: all threads)" : "");
    fprintf(f, "  Calls:      %lld\n", s.calls.load());
    fprintf(f, "  Wall time:  %.6f s inclusive, %.6f s exclusive\n", Seconds(s.wall_ns.load()),
            Seconds(s.exclusive_wall_ns.load()));
    if (ev.names.empty()) continue;
    fprintf(f, "  %-40s %20s %20s\n", "Event", "Inclusive", "Exclusive");
    for (size_t i = 0; i < ev.names.size(); ++i) {
      fprintf(f, "  %-40s %20lld %20lld\n", ev.names[i].c_str(), s.inclusive[i].load(),
              s.exclusive[i].load());
    }
    WriteMetricsText(f, ev, s);
  }
  bool any = false;
  for (int k = 0; k < static_cast<int>(Misuse::kCount); ++k) {
    long n = run.misuse.counts[k].load();
    if (n == 0) continue;
    if (!any) fprintf(f, "\nBad use seen (ignored):\n");
    any = true;
    fprintf(f, "  %-20s %ld\n", MisuseKey(static_cast<Misuse>(k)), n);
  }
}

void WriteJson(FILE *f, const Run &run) {
  const EventSet &ev = run.events;
  fprintf(f, "{\n  \"program\": %s,\n  \"task\": %d,\n  \"requested_task\": %d,\n  \"pid\": %ld,\n",
          JsonString(run.program).c_str(), run.task_id, run.requested_task_id,
          static_cast<long>(getpid()));
  fprintf(f, "  \"event_source\": %s,\n  \"event_set\": %s,\n  \"events\": [",
          JsonString(ev.source).c_str(), JsonString(ev.description).c_str());
  for (size_t i = 0; i < ev.names.size(); ++i) {
    fprintf(f, "%s%s", i ? ", " : "", JsonString(ev.names[i]).c_str());
  }
  fprintf(f, "],\n  \"metrics\": [");
  for (int m = 0; m < ev.num_metrics; ++m) {
    const pm_metric_t &metric = ev.metrics[m];
    fprintf(f, "%s\n    {\"name\": %s, \"formula\": %s, \"unit\": %s, \"uses_time\": %s}",
            m ? "," : "", JsonString(metric.name).c_str(), JsonString(metric.formula).c_str(),
            JsonString(metric.unit).c_str(), metric.uses_time ? "true" : "false");
  }
  fprintf(f, "%s],\n  \"wall_seconds\": %.9f,\n  \"sections\": [", ev.num_metrics ? "\n  " : "",
          Seconds(run.terminate_ns - run.init_ns));
  bool first = true;
  for (int id = 0; id < run.num_sections; ++id) {
    const Section &s = run.sections[id];
    if (!Used(s)) continue;
    fprintf(f,
            "%s\n    {\"id\": %d, \"label\": %s, \"file\": %s, \"start_line\": %d, "
            "\"stop_line\": %d, \"threaded\": %s, \"calls\": %lld, \"wall_seconds\": %.9f, "
            "\"exclusive_wall_seconds\": %.9f,\n     \"inclusive\": {",
            first ? "" : ",", id, JsonString(s.label).c_str(), JsonString(s.file).c_str(),
            s.start_line, s.stop_line.load(), s.threaded.load() ? "true" : "false", s.calls.load(),
            Seconds(s.wall_ns.load()), Seconds(s.exclusive_wall_ns.load()));
    first = false;
    for (size_t i = 0; i < ev.names.size(); ++i) {
      fprintf(f, "%s%s: %lld", i ? ", " : "", JsonString(ev.names[i]).c_str(),
              s.inclusive[i].load());
    }
    fprintf(f, "},\n     \"exclusive\": {");
    for (size_t i = 0; i < ev.names.size(); ++i) {
      fprintf(f, "%s%s: %lld", i ? ", " : "", JsonString(ev.names[i]).c_str(),
              s.exclusive[i].load());
    }
    fprintf(f, "}");
    WriteMetricsJson(f, ev, "inclusive_metrics",
                     EvaluateMetrics(ev, s.inclusive, s.wall_ns.load()));
    WriteMetricsJson(f, ev, "exclusive_metrics",
                     EvaluateMetrics(ev, s.exclusive, s.exclusive_wall_ns.load()));
    fprintf(f, "}");
  }
  fprintf(f, "%s],\n  \"bad_use\": {", first ? "" : "\n  ");
  for (int k = 0; k < static_cast<int>(Misuse::kCount); ++k) {
    fprintf(f, "%s%s: %ld", k ? ", " : "", JsonString(MisuseKey(static_cast<Misuse>(k))).c_str(),
            run.misuse.counts[k].load());
  }
  fprintf(f, "}\n}\n");
}

bool WriteOne(const std::string &path, const Run &run, void (*write)(FILE *, const Run &)) {
  FILE *f = fopen(path.c_str(), "w");
  if (!f) {
    fprintf(stderr, "libhpm: cannot write the report %s: %s\n", path.c_str(), strerror(errno));
    return false;
  }
  write(f, run);
  bool ok = !ferror(f);
  if (fclose(f) != 0) ok = false;
  if (!ok)
    fprintf(stderr, "libhpm: writing the report %s failed: %s\n", path.c_str(), strerror(errno));
  return ok;
}

}  // namespace

std::string ReportPath(const Run &run) {
  const char *name = getenv("HPM_OUTPUT_NAME");
  std::string base = name && *name ? name : "perfhpm";
  return base + std::to_string(run.task_id) + "." + std::to_string(static_cast<long>(getpid()));
}

bool WriteReports(const Run &run) {
  std::string path = ReportPath(run);
  bool text = WriteOne(path, run, WriteText);
  bool json = WriteOne(path + ".json", run, WriteJson);
  return text && json;
}

}  // namespace hpm
