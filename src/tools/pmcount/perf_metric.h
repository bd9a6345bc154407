/* SPDX-License-Identifier: MIT */
// The metric perf stat prints beside an event (its "shadow" metric): CPUs utilized on a clock,
// a rate per second of task time on a software event or tracepoint, GHz on cycles, insn per
// cycle on instructions, the miss ratio on branch and cache misses. -x and -j carry it in
// their metric-value and metric-unit fields, so that scripts written for perf find it there.
// Pure: computed from one row of counts.
#pragma once

#include <functional>
#include <string>

#include "count_report.h"
#include "options.h"

namespace pmcount {

struct PerfMetric {
  bool shown = false;  // false: both fields empty, as perf leaves them
  double value = 0;
  std::string text;  // the value as perf prints it: "0.510", "77.990", "12.34"
  std::string unit;  // "CPUs utilized", "K/sec", "GHz", "insn per cycle", "of all branches"
};

// The kind of an event for its metric, from its catalog encoding ("perf::PERF_COUNT_SW_TASK_CLOCK",
// "perf::CYCLES:u").
PerfKind PerfKindOf(const std::string &encoding);

// A count in perf's unit: milliseconds for the clocks (counted in ns), else the count.
double PerfValue(const EventInfo &event, double value);
// perf's unit: "msec" for the clocks, else the event's own.
std::string PerfUnit(const EventInfo &event);

// The metric of event `e` of `row`; `span_ns` is the wall time the counts cover.
PerfMetric PerfMetricOf(const Report &report, const Row &row, size_t e, uint64_t span_ns);

// Calls `event_line` for each event of each row in perf's order (per CPU: event by event, each
// over the CPUs; per core or socket and in total: row by row), and `metric_lines` for each row
// after its events (per CPU: after all of them).
void ForEachPerfLine(const Report &report, const Snapshot &snapshot,
                     const std::function<void(const Row &, size_t)> &event_line,
                     const std::function<void(const Row &)> &metric_lines);

}  // namespace pmcount
