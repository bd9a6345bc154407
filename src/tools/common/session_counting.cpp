// SPDX-License-Identifier: MIT
#include "session_counting.h"

#include <pmapi.h>
#include <pmapi_session.h>
#include <pmapi_topology.h>

#include <algorithm>

namespace tools {
namespace {

// The dense ids (pmapi_topology.h) of Linux CPUs `cpus`, in the same order; false when one has
// none (it went offline since pmcount checked -C).
bool DenseIds(const std::vector<int> &cpus, std::vector<int> *dense) {
  int count = 0;
  if (pm_get_cpu_count(&count) != 0) return false;
  std::vector<int> dense_of_linux;
  for (int id = 0; id < count; ++id) {
    pm_cpu_topology_t where;
    if (pm_get_cpu_topology(id, &where) != 0) continue;
    if (where.lcpu >= static_cast<int>(dense_of_linux.size())) {
      dense_of_linux.resize(static_cast<size_t>(where.lcpu) + 1, -1);
    }
    if (where.lcpu >= 0) dense_of_linux[static_cast<size_t>(where.lcpu)] = id;
  }
  dense->clear();
  for (int cpu : cpus) {
    if (cpu < 0 || cpu >= static_cast<int>(dense_of_linux.size())) return false;
    const int id = dense_of_linux[static_cast<size_t>(cpu)];
    if (id < 0) return false;
    dense->push_back(id);
  }
  return true;
}

class SessionCounting : public Counting {
 public:
  // `dense_cpus` non-empty: reads per CPU; else `targets` reads per target (at least one).
  SessionCounting(pm_session_t *session, size_t events, std::vector<int> dense_cpus, size_t targets)
      : session_(session), counts_(events), cpus_(std::move(dense_cpus)), targets_(targets) {}
  ~SessionCounting() override { Delete(); }

  int Read(std::vector<Sample> *samples) override {
    const size_t parts = cpus_.empty() ? targets_ : cpus_.size();
    samples->assign(parts, Sample());
    const int n = static_cast<int>(counts_.size());
    for (size_t i = 0; i < parts; ++i) {
      const int rc = !cpus_.empty()
                         ? pm_session_read_cpu(session_, cpus_[i], counts_.data(), n)
                         : pm_session_read_target(session_, static_cast<int>(i), counts_.data(), n);
      Fill(rc, &(*samples)[i]);
    }
    return 0;
  }

  int Start() override { return pm_session_start(session_); }

 protected:
  void DeleteProgram() override {
    pm_session_destroy(session_);
    session_ = nullptr;
  }

 private:
  void Fill(int rc, Sample *sample) const {
    sample->rc = rc;
    if (rc != 0) return;
    const size_t n = counts_.size();
    sample->values.resize(n);
    sample->enabled_of.resize(n);
    sample->running_of.resize(n);
    for (size_t e = 0; e < n; ++e) {
      const pm_session_count_t &count = counts_[e];
      sample->values[e] = count.value;
      sample->enabled_of[e] = count.enabled;
      sample->running_of[e] = count.running;
      sample->enabled_ns = std::max(sample->enabled_ns, count.enabled);
      sample->running_ns = std::max(sample->running_ns, count.running);
    }
  }

  pm_session_t *session_;
  std::vector<pm_session_count_t> counts_;  // sized once: a read allocates nothing more
  std::vector<int> cpus_;
  size_t targets_;
};

// A session of the events `which` (indexes into plan.specs) on `places`, opened, and counting
// when `on`. Returns 0 or the pmapi code; *out is null after a failure.
int Open(const Plan &plan, const std::vector<size_t> &which, const SessionPlaces &places,
         const std::vector<int> &dense_cpus, bool on, pm_session_t **out) {
  *out = nullptr;
  pm_session_t *session = nullptr;
  int rc = pm_session_create(0, &session);
  if (rc != 0) return rc;
  std::string spec;
  for (size_t e : which) spec += (spec.empty() ? "" : ",") + plan.specs[e];
  rc = pm_session_add_events(session, spec.c_str(), nullptr);
  if (rc == 0 && !dense_cpus.empty()) {
    rc = pm_session_add_cpus(session, dense_cpus.data(), static_cast<int>(dense_cpus.size()));
  }
  if (rc == 0 && places.command > 0) rc = pm_session_add_process(session, places.command);
  for (size_t t = 0; rc == 0 && t < places.targets.size(); ++t) {
    const AttachTarget &target = places.targets[t];
    rc = target.whole_process ? pm_session_add_process(session, target.pid)
                              : pm_session_add_thread(session, target.tid);
  }
  if (rc == 0) rc = on ? pm_session_start(session) : pm_session_open(session);
  if (rc != 0) {
    pm_session_destroy(session);
    return rc;
  }
  *out = session;
  return 0;
}

// Each event still counted, in order, with its session index.
std::vector<size_t> Counted(Plan *plan) {
  std::vector<size_t> which;
  for (size_t e = 0; e < plan->specs.size(); ++e) {
    plan->counter_of_event[e] = plan->reasons[e].empty() ? static_cast<int>(which.size()) : -1;
    if (plan->reasons[e].empty()) which.push_back(e);
  }
  return which;
}

}  // namespace

std::string LevelsOf(const SelectedEvent &event, const Mode &mode) {
  const bool user = event.has_mode ? event.user : mode.user;
  const bool kernel = event.has_mode ? event.kernel : mode.kernel;
  if (user && kernel) return "";
  return user ? ":u" : ":k";
}

Plan MakeSessionPlan(const Selection &selection, const Mode &mode) {
  Plan plan;
  plan.counter_of_event.assign(selection.events.size(), -1);
  for (const SelectedEvent &event : selection.events) {
    plan.ids.push_back(event.entry->id);
    plan.reasons.push_back(event.not_countable);
    plan.specs.push_back(std::to_string(event.entry->id) + LevelsOf(event, mode));
  }
  Counted(&plan);
  return plan;
}

int CountWithSession(Plan *plan, const SessionPlaces &places, bool on,
                     std::unique_ptr<Counting> *out) {
  out->reset();
  std::vector<int> dense_cpus;
  if (!places.cpus.empty() && !DenseIds(places.cpus, &dense_cpus)) {
    return Pmapi_InvalidCpu;  // gone offline since -C was checked
  }
  std::vector<size_t> which = Counted(plan);
  if (which.empty()) return 0;
  pm_session_t *session = nullptr;
  int rc = Open(*plan, which, places, dense_cpus, on, &session);
  if (rc != 0 && !AboutAnEvent(rc)) return rc;
  if (rc != 0) {
    // One refused event must not take the others down: each alone says whether it is the one.
    for (size_t e : which) {
      pm_session_t *alone = nullptr;
      const int own = Open(*plan, {e}, places, dense_cpus, false, &alone);
      if (own == 0) {
        pm_session_destroy(alone);
      } else if (AboutAnEvent(own)) {
        plan->reasons[e] = RefusalReason(own);
      } else {
        return own;
      }
    }
    which = Counted(plan);
    if (which.empty()) return 0;
    rc = Open(*plan, which, places, dense_cpus, on, &session);
    if (rc != 0) return rc;
  }
  const size_t targets =
      places.targets.empty() ? 1 : places.targets.size();  // a command: one process
  out->reset(new SessionCounting(session, which.size(), dense_cpus, targets));
  return 0;
}

}  // namespace tools
