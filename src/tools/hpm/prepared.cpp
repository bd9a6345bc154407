// SPDX-License-Identifier: MIT
#include "prepared.h"

#include <linux/perf_event.h>
#include <stdlib.h>

#include <algorithm>

#include "catalog/catalog.h"
#include "count_options.h"

namespace aix {
namespace {

constexpr long kMaxSliceMs = 86400L * 1000;

// Software events that happen only in kernel mode: the kernel switches and moves a task from
// kernel code, so in user mode they count 0 whatever the resource usage says.
bool KernelModeOnly(const pmapi::CatalogEvent &event) {
  perf_event_attr attr{};
  if (!pmapi::Catalog::Get().Encode(event, &attr).ok() || attr.type != PERF_TYPE_SOFTWARE) {
    return false;
  }
  return attr.config == PERF_COUNT_SW_CONTEXT_SWITCHES ||
         attr.config == PERF_COUNT_SW_CPU_MIGRATIONS ||
         attr.config == PERF_COUNT_SW_CGROUP_SWITCHES;
}

// The note for the events of `sets` that count 0 in user mode, "" when none is counted so.
std::string UserModeZerosNote(const HpmOptions &options, const std::vector<tools::Selection> &sets,
                              const tools::Mode &mode) {
  if (mode.kernel || !mode.user) return "";
  std::vector<std::string> zeros;
  for (const tools::Selection &set : sets) {
    for (const tools::SelectedEvent &event : set.events) {
      if (!event.entry || !KernelModeOnly(*event.entry)) continue;
      if (event.has_mode && event.kernel) continue;
      if (std::find(zeros.begin(), zeros.end(), event.name) == zeros.end()) {
        zeros.push_back(event.name);
      }
    }
  }
  if (zeros.empty()) return "";
  std::string names;
  for (const std::string &name : zeros) names += (names.empty() ? "" : ", ") + name;
  const bool hpmcount = options.tool == Tool::kHpmcount;
  return names + ": 0 in user mode, the mode counted here: the kernel switches and moves tasks " +
         "in kernel mode" + (hpmcount ? " (the resource usage above counts every switch)" : "") +
         "; " + (hpmcount ? "-k counts kernel mode too" : "leave -u out to count kernel mode too");
}

}  // namespace

std::string Prepare(const HpmOptions &options, const EventChoice &choice, Prepared *prepared) {
  Prepared out;
  out.metrics = choice.metrics;
  tools::Options base;
  if (options.tool == Tool::kHpmcount) {
    // AIX's hpmcount counts user mode unless -k adds the kernel's.
    base.user = true;
    base.kernel = options.kernel;
  } else {
    // hpmstat counts both unless -u or -k picks one.
    base.user = options.user || !options.kernel;
    base.kernel = options.kernel || !options.user;
  }
  if (options.hypervisor) {
    out.notes.push_back(
        "-H: Linux counts no hypervisor mode apart from the others (a guest has none to "
        "exclude); nothing more is counted");
  }
  if (options.time_base != "time") {
    out.notes.push_back("-b " + options.time_base + ": Linux has no " + options.time_base +
                        " register; times are the wall clock");
  }
  if (options.runlatch) out.notes.push_back("-r: Linux has no run latch; counting is unchanged");
  if (!options.tuning.empty()) {
    out.notes.push_back("-O " + options.tuning + ": no such tuning on Linux; ignored");
  }
  if (const char *slice = getenv("HPM_SLICE_DURATION")) {
    char *end = nullptr;
    const long ms = strtol(slice, &end, 10);
    if (end == slice || *end != '\0' || ms < 1 || ms > kMaxSliceMs) {
      return "HPM_SLICE_DURATION '" + std::string(slice) +
             "' is not a whole number of ms from 1 to " + std::to_string(kMaxSliceMs);
    }
    out.slice_ms = ms;
  }
  std::vector<tools::Options> requests;
  if (!choice.groups.empty()) {
    for (const std::string &group : choice.groups) {
      tools::Options one = base;
      one.group = group;
      requests.push_back(one);
    }
  } else {
    tools::Options one = base;
    if (!choice.events.empty()) one.event_lists.push_back(choice.events);
    requests.push_back(one);
  }
  if (requests.size() > static_cast<size_t>(tools::kMaxMultiplexSets)) {
    return std::to_string(requests.size()) + " groups given; at most " +
           std::to_string(tools::kMaxMultiplexSets) + " are multiplexed";
  }
  // One set is counted by a session: any number of events, each with its own levels. Several
  // are one _mx program: at most 8 events a set, one mode for all.
  const bool session = requests.size() == 1;
  for (const tools::Options &request : requests) {
    // pmcount's selection, and through it the library's pm_select_events.
    tools::Selection selection;
    std::string error = tools::SelectEvents(request, &selection, /*any_number=*/session);
    if (!error.empty()) return error;
    tools::Mode mode;
    error = tools::ChooseMode(request, selection, &mode, &out.notes,
                              session ? &out.per_event : nullptr);
    if (!error.empty()) return error;
    out.mode = mode;
    for (const std::string &note : selection.notes) out.notes.push_back(note);
    out.sets.push_back(std::move(selection));
  }
  const std::string zeros = UserModeZerosNote(options, out.sets, out.mode);
  if (!zeros.empty()) out.notes.push_back(zeros);
  for (const std::string &name : out.metrics) {
    bool known = false;
    for (const tools::Selection &set : out.sets) {
      for (const tools::MetricDef &metric : set.metrics) known = known || metric.name == name;
    }
    if (!known) {
      return "-D " + name + ": no derived metric of that name for these events (pmlist -D -1 " +
             "lists the metrics)";
    }
  }
  *prepared = std::move(out);
  return "";
}

}  // namespace aix
