// SPDX-License-Identifier: MIT
#include "hpm_report.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

namespace aix {
namespace {

// The column the ':' of an event line sits in, and the width of its count: AIX's layout, which
// scripts split at the last ':'.
constexpr int kEventLabelWidth = 58;
constexpr int kMetricLabelWidth = 48;
constexpr int kUsageLabelWidth = 45;

std::string Printf(const char *format, ...) __attribute__((format(printf, 1, 2)));
std::string Printf(const char *format, ...) {
  char buffer[512];
  va_list args;
  va_start(args, format);
  vsnprintf(buffer, sizeof buffer, format, args);
  va_end(args);
  return buffer;
}

std::string Seconds(const struct timeval &tv) {
  return Printf("%ld.%06ld seconds", static_cast<long>(tv.tv_sec), static_cast<long>(tv.tv_usec));
}

std::string UsageLine(const char *label, const std::string &value) {
  return Printf(" %-*s: %s\n", kUsageLabelWidth, label, value.c_str());
}

// Linux keeps these getrusage fields at zero whatever happens (getrusage(2)): a zero would be
// a claim, so the line says the field is not kept.
const char kNotKept[] = "not kept by Linux";

std::string EventText(const EventLine &event) {
  std::string label = event.name;
  if (!event.long_name.empty()) label += " (" + event.long_name + ")";
  if (!event.counted) {
    return Printf("  %-*s:  not counted: %s\n", kEventLabelWidth, label.c_str(),
                  event.reason.c_str());
  }
  return Printf("  %-*s: %15llu\n", kEventLabelWidth, label.c_str(), event.value);
}

std::string MetricText(const MetricLine &metric, bool formula) {
  std::string text;
  if (isnan(metric.value)) {
    text = Printf("  %-*s:             n/a\n", kMetricLabelWidth, metric.name.c_str());
  } else {
    text = Printf("  %-*s: %15.3f\n", kMetricLabelWidth, metric.name.c_str(), metric.value);
  }
  if (formula && !metric.formula.empty()) text += "    formula: " + metric.formula + "\n";
  return text;
}

std::string SetText(const HpmReport &report, const SetResult &set, size_t index) {
  std::string text;
  if (report.multiplexed) {
    text += Printf(" Set: %zu\n", index + 1);
    if (!set.group.empty()) text += " Group: " + set.group + "\n";
    text += Printf(" Counting duration: %.3f seconds\n", set.seconds);
  } else if (report.detailed && !set.group.empty()) {
    text += " Group: " + set.group + "\n";
  }
  for (const EventLine &event : set.events) text += EventText(event);
  if (report.metrics && !set.metrics.empty()) {
    text += "  Derived metric group: " + (set.group.empty() ? std::string("default") : set.group) +
            "\n";
    for (const MetricLine &metric : set.metrics) text += MetricText(metric, report.formulas);
  }
  return text;
}

}  // namespace

std::string FormatUsage(const struct rusage &u) {
  std::string text = " ########  Resource Usage Statistics  ########\n";
  text += UsageLine("Total amount of time in user mode", Seconds(u.ru_utime));
  text += UsageLine("Total amount of time in system mode", Seconds(u.ru_stime));
  text += UsageLine("Maximum resident set size", Printf("%ld Kbytes", u.ru_maxrss));
  text += UsageLine("Average shared memory use in text segment", kNotKept);
  text += UsageLine("Average unshared memory use in data segment", kNotKept);
  text += UsageLine("Number of page faults without I/O activity", Printf("%ld", u.ru_minflt));
  text += UsageLine("Number of page faults with I/O activity", Printf("%ld", u.ru_majflt));
  text += UsageLine("Number of times process was swapped out", kNotKept);
  text += UsageLine("Number of times file system performed INPUT", Printf("%ld", u.ru_inblock));
  text += UsageLine("Number of times file system performed OUTPUT", Printf("%ld", u.ru_oublock));
  text += UsageLine("Number of IPC messages sent", kNotKept);
  text += UsageLine("Number of IPC messages received", kNotKept);
  text += UsageLine("Number of signals delivered", kNotKept);
  text += UsageLine("Number of voluntary context switches", Printf("%ld", u.ru_nvcsw));
  text += UsageLine("Number of involuntary context switches", Printf("%ld", u.ru_nivcsw));
  text += " #######  End of Resource Statistics  ########\n";
  return text;
}

std::string HpmcountOutputName(const std::string &file, const char *mp_child, int pid) {
  std::string task = "0000";
  if (mp_child && *mp_child) {
    const std::string id = mp_child;
    const bool number = id.size() <= 9 && id.find_first_not_of("0123456789") == std::string::npos;
    task = number ? Printf("%04d", atoi(id.c_str())) : id;
  }
  return file + "_" + task + "." + std::to_string(pid);
}

std::string FormatReport(const HpmReport &report) {
  std::string text;
  if (!report.timestamp.empty()) text += " Time stamp: " + report.timestamp + "\n";
  if (!report.workload.empty()) {
    text += Printf(" Workload context: %s (pid:%d)\n", report.workload.c_str(), report.pid);
  }
  text += Printf(" Execution time (wall clock time): %.6f seconds\n", report.wall_seconds);
  if (report.has_usage) text += FormatUsage(report.usage);
  for (const std::string &note : report.notes) text += " Note: " + note + "\n";
  text += " Counting mode: " + report.mode + "\n";
  for (size_t k = 0; k < report.sets.size(); ++k) text += SetText(report, report.sets[k], k);
  return text;
}

}  // namespace aix
