/* SPDX-License-Identifier: MIT */
// A timeline of counts per interval (pmcount -I) as one self-contained HTML page: a chart per
// series, a point per interval, the value on hover. Nothing is fetched: the data sit in the
// page as JSON and its own small script draws them (SVG). Pure.
#pragma once

#include <stdint.h>

#include <string>
#include <vector>

namespace tools {

struct TimelineSeries {
  std::string name;            // "task-clock", or "CPU1 task-clock" per CPU
  std::string unit;            // "" for counts, "ns" for the clocks
  std::vector<double> values;  // one per interval; NaN where it was not counted
};

struct Timeline {
  std::string title;
  std::string subtitle;          // the command, the interval
  std::vector<double> times_ms;  // each interval's end, since counting started
  std::vector<TimelineSeries> series;
};

std::string TimelineHtml(const Timeline &timeline);

}  // namespace tools
