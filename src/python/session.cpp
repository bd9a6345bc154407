// SPDX-License-Identifier: MIT
#include "session.h"

#include "errors.h"
#include "library.h"

#include <pmapi_metrics.h>
#include <pmapi_select.h>
#include <pmapi_topology.h>
#include <pybind11/pybind11.h>

#include <time.h>

namespace py = pybind11;

namespace pmapi_python {
namespace {

// From this many descriptors on, a start, stop or read is long enough for other Python
// threads to run meanwhile; below it, releasing the GIL would cost more than the call.
constexpr size_t kBlockingDescriptors = 32;

double Now() {
  timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return double(t.tv_sec) + double(t.tv_nsec) * 1e-9;
}

bool IsBlank(const std::string &text) {
  return text.find_first_not_of(" \t\n") == std::string::npos;
}

}  // namespace

Session::Session(const std::optional<std::string> &events, const std::string &scope,
                 const std::vector<int> &cpus)
    : scope_(scope) {
  if (scope != "thread" && scope != "process" && scope != "system" && scope != "none")
    throw py::value_error("scope must be \"thread\", \"process\" or \"system\", not \"" + scope +
                          "\"");
  if (!cpus.empty() && scope != "system") throw py::value_error("cpus= is for scope=\"system\"");
  EnsureInitialized();
  Check(pm_session_create(0, &session_), "pm_session_create");
  try {
    AddEvents(events);
    if (scope == "process") {
      Check(pm_session_add_process(session_, getpid()), "pm_session_add_process");
    } else if (scope == "system") {
      Check(pm_session_add_cpus(session_, cpus.empty() ? nullptr : cpus.data(), int(cpus.size())),
            "pm_session_add_cpus");
      if (cpus.empty()) {
        int n = 0;
        Check(pm_get_cpu_count(&n), "pm_get_cpu_count");
        for (int i = 0; i < n; ++i) cpus_.push_back(i);
      } else {
        cpus_ = cpus;
      }
    }
  } catch (...) {
    pm_session_destroy(session_);
    throw;
  }
}

Session::~Session() { pm_session_destroy(session_); }

void Session::AddEvents(const std::optional<std::string> &events) {
  // A group (or the default, which is one) is counted as its members, in its order.
  std::string spec = events.value_or("");
  const char *group = IsBlank(spec) ? nullptr : GroupNamed(spec);
  if (group || IsBlank(spec)) {
    pm_selection_t selection;
    Check(pm_select_events(group, group ? PM_SELECT_GROUP : 0, &selection), "pm_select_events");
    group_id_ = selection.group_id;
    group_name_ = selection.group_name;
    spec.clear();
    for (int i = 0; i < selection.nevents; ++i) {
      if (i) spec += ',';
      spec += selection.events[i].name;
    }
  }
  int added = 0;
  Check(pm_session_add_events(session_, spec.c_str(), &added), "pm_session_add_events");
  counts_.assign(size_t(added), pm_session_count_t{});
}

const std::vector<std::string> &Session::names() const {
  if (names_.size() == counts_.size()) return names_;
  CheckOpen();
  std::vector<std::string> names;
  names.reserve(counts_.size());
  for (size_t i = 0; i < counts_.size(); ++i) {
    pm_session_event_t info;
    Check(pm_session_event_info(session_, int(i), &info), "pm_session_event_info");
    names.emplace_back(info.name);
  }
  names_ = std::move(names);
  return names_;
}

bool Session::Blocking() const {
  return counts_.size() * (cpus_.empty() ? 1 : cpus_.size()) >= kBlockingDescriptors;
}

template <typename Call>
void Session::Run(Call call) {
  if (!Blocking()) return call();
  py::gil_scoped_release unlocked;
  std::lock_guard<std::mutex> one_at_a_time(in_use_);
  call();
}

void Session::CheckOpen() const {
  if (!session_) throw py::value_error("the session is closed");
}

void Session::Close() {
  if (!session_) return;
  names();  // while the library can still say them
  Stop();
  // Closing many tracepoints takes the kernel a while (it waits for each to be unhooked).
  Run([&] { pm_session_destroy(session_); });
  session_ = nullptr;
}

void Session::Start() {
  CheckOpen();
  if (counting_) return;
  Run([&] { Check(pm_session_start(session_), "pm_session_start"); });
  counting_ = true;
  started_ = Now();
}

void Session::Stop() {
  if (!counting_) return;
  Run([&] {
    Check(pm_session_stop(session_), "pm_session_stop");
    Check(pm_session_read(session_, counts_.data(), int(counts_.size())), "pm_session_read");
  });
  counting_ = false;
  elapsed_ += Now() - started_;
}

void Session::Reset() {
  CheckOpen();
  Run([&] {
    int rc = pm_session_reset(session_);
    if (rc != Pmapi_NoSetProg) Check(rc, "pm_session_reset");  // never opened: nothing to reset
  });
  counts_.assign(counts_.size(), pm_session_count_t{});
  elapsed_ = 0;
  started_ = Now();
}

void Session::Refresh() {
  if (!counting_) return;
  Run([&] {
    Check(pm_session_read(session_, counts_.data(), int(counts_.size())), "pm_session_read");
  });
}

void Session::ReadCpu(int cpu, std::vector<pm_session_count_t> &out) {
  CheckOpen();
  out.assign(counts_.size(), pm_session_count_t{});
  Check(pm_session_read_cpu(session_, cpu, out.data(), int(out.size())), "pm_session_read_cpu");
}

double Session::Elapsed() const { return elapsed_ + (counting_ ? Now() - started_ : 0); }

std::vector<std::pair<std::string, double>> Session::Metrics() const {
  std::vector<std::pair<std::string, double>> metrics;
  if (group_id_ < 0) return metrics;
  pm_group_metrics_t m;
  Check(pm_get_group_metrics(group_id_, &m), "pm_get_group_metrics");
  if (m.maxmetrics == 0) return metrics;
  std::vector<long long> values(size_t(m.members > 0 ? m.members : 0), 0);
  for (size_t i = 0; i < values.size() && i < counts_.size(); ++i)
    values[i] = (long long)counts_[i].value;
  std::vector<double> results(size_t(m.maxmetrics));
  double seconds = Elapsed();
  Check(pm_evaluate_group_metrics(group_id_, values.data(), int(values.size()),
                                  seconds > 0 ? seconds : -1, results.data(), m.maxmetrics),
        "pm_evaluate_group_metrics");
  for (int i = 0; i < m.maxmetrics; ++i)
    metrics.emplace_back(m.metrics[i].name, results[size_t(i)]);
  return metrics;
}

}  // namespace pmapi_python
