// SPDX-License-Identifier: MIT
// The agent's counting (counting.h) over pmapi_session.h, pmapi_select.h, pmapi_topology.h and
// pmapi_metrics.h. Events are added one by one so that one the machine refuses is reported
// with the library's sentence and the others still count.
#include "counting.h"

#include "metric_names.h"

#include <dirent.h>
#include <pmapi.h>
#include <pmapi_metrics.h>
#include <pmapi_select.h>
#include <pmapi_session.h>
#include <pmapi_topology.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>

#include <cmath>
#include <set>

namespace pmapi_pcp {

struct Session {
  pm_session_t *handle = nullptr;
  ~Session() { pm_session_destroy(handle); }
};

namespace {

std::string Sentence(const char *where, int rc) { return pm_strerror(where, rc); }

bool Initialize(std::string *why) {
  static int rc = [] {
    pm_info2_t info;
    pm_groups_info_t groups;
    memset(&info, 0, sizeof info);
    memset(&groups, 0, sizeof groups);
    return pm_initialize(PM_VERIFIED | PM_UNVERIFIED | PM_CAVEAT | PM_GET_GROUPS, &info, &groups,
                         PM_CURRENT);
  }();
  if (rc != 0) *why = Sentence("pm_initialize", rc);
  return rc == 0;
}

Mode ModeOf(const pm_event_spec_t &spec) {
  if (!spec.has_mode) return Mode::kAll;
  if (spec.user && spec.kernel) return Mode::kUserKernel;
  return spec.user ? Mode::kUser : Mode::kKernel;
}

// Whether `spec` names a group (pmlist -g): then its members are the events, in order.
bool SelectGroup(const std::string &spec, pm_selection_t *chosen) {
  if (spec.empty()) return pm_select_events("", 0, chosen) == 0 && chosen->group_id >= 0;
  return pm_select_events(spec.c_str(), PM_SELECT_GROUP, chosen) == 0;
}

}  // namespace

Counting::Counting() = default;
Counting::~Counting() = default;

std::shared_ptr<Session> Counting::OpenSession(const std::string &cgroup, std::string *why) const {
  auto session = std::make_shared<Session>();
  // Flexible: a user's own pinned counting takes the counters first (docs/pcp.md).
  int rc = pm_session_create(PM_SESSION_FLEXIBLE, &session->handle);
  for (size_t i = 0; rc == 0 && i < names_.size(); ++i) {
    rc = pm_session_add_events(session->handle, names_[i].c_str(), nullptr);
  }
  if (rc == 0) {
    rc = cgroup.empty() ? pm_session_add_cpus(session->handle, nullptr, 0)
                        : pm_session_add_cgroup(session->handle, cgroup.c_str(), nullptr, 0);
  }
  if (rc == 0) rc = pm_session_start(session->handle);
  if (rc != 0) {
    *why = Sentence("pm_session_start", rc);
    return nullptr;
  }
  return session;
}

bool Counting::Configure(const std::string &spec) {
  spec_ = spec;
  names_.clear();
  events_.clear();
  refusals_.clear();
  formulas_.clear();
  group_id_ = -1;
  note_.clear();
  cpu_session_.reset();
  jobs_.clear();
  if (!Initialize(&state_)) return false;

  int ncpus = 0;
  pm_get_cpu_count(&ncpus);
  cpus_.clear();
  for (int c = 0; c < ncpus; ++c) {
    pm_cpu_topology_t where;
    if (pm_get_cpu_topology(c, &where) != 0) continue;
    cpus_.push_back({where.cpuid, where.lcpu, where.core, where.package, where.numa_node});
  }

  // The candidates: a group's members, or each event of the list as written.
  std::vector<std::string> candidates;
  pm_selection_t chosen;
  if (SelectGroup(spec, &chosen)) {
    group_id_ = chosen.group_id;
    note_ = chosen.note;
    for (int e = 0; e < chosen.nevents; ++e) {
      if (!chosen.events[e].countable) {
        refusals_.push_back({chosen.events[e].name, chosen.events[e].not_countable});
      } else {
        candidates.push_back(chosen.events[e].name);
      }
    }
  } else {
    int n = 0;
    char why[PM_SELECT_TEXT_MAX];
    if (pm_parse_event_list(spec.c_str(), nullptr, 0, &n, why) != 0) {
      state_ = why;
      return false;
    }
    std::vector<pm_event_spec_t> list(static_cast<size_t>(n));
    pm_parse_event_list(spec.c_str(), list.data(), n, &n, why);
    for (const auto &item : list) candidates.push_back(item.text);
  }

  // Each candidate alone on one CPU first: one the machine refuses is reported, not fatal.
  std::set<std::string> leaves;
  for (const std::string &candidate : candidates) {
    Session probe;
    int rc = pm_session_create(PM_SESSION_FLEXIBLE, &probe.handle);
    int added = 0;
    if (rc == 0) rc = pm_session_add_events(probe.handle, candidate.c_str(), &added);
    const int first_cpu = 0;
    if (rc == 0) rc = pm_session_add_cpus(probe.handle, &first_cpu, 1);
    if (rc == 0) rc = pm_session_open(probe.handle);
    if (rc != 0) {
      refusals_.push_back({candidate, Sentence(candidate.c_str(), rc)});
      continue;
    }
    std::vector<CountedEvent> found;
    std::string clash;
    for (int i = 0; i < added && clash.empty(); ++i) {
      pm_session_event_t info;
      pm_session_event_info(probe.handle, i, &info);
      pm_event_spec_t parsed;
      int one = 0;
      if (pm_parse_event_list(info.name, &parsed, 1, &one, nullptr) != 0 || one != 1) continue;
      CountedEvent event;
      event.name = info.name;
      event.event_id = info.event_id;
      event.mode = ModeOf(parsed);
      event.leaf = MetricLeaf(parsed.name, event.mode);
      event.hardware = info.kind == PM_SESSION_HARDWARE;
      if (event.event_id < 0 || event.event_id >= kMaxEventId) {
        clash = "its catalog id " + std::to_string(event.event_id) + " is past the agent's ids";
      } else if (leaves.count(event.leaf) != 0) {
        clash = "its metric name " + event.leaf + " is taken by an event counted before it";
      }
      found.push_back(event);
    }
    if (!clash.empty()) {
      refusals_.push_back({candidate, clash});
      continue;
    }
    for (const auto &event : found) leaves.insert(event.leaf);
    names_.push_back(candidate);
    events_.insert(events_.end(), found.begin(), found.end());
  }
  if (names_.empty()) {
    state_ = "no event counts: " +
             (refusals_.empty() ? std::string("the spec names none") : refusals_[0].reason);
    return false;
  }

  std::string why;
  cpu_session_ = OpenSession("", &why);
  if (!cpu_session_) {
    state_ = why;
    return false;
  }

  // A group whose members all count carries its formulas.
  pm_group_metrics_t metrics;
  if (group_id_ >= 0 && refusals_.empty() && group_id_ < kMaxGroupId &&
      pm_get_group_metrics(group_id_, &metrics) == 0) {
    for (int m = 0; m < metrics.maxmetrics && m < kMaxFormulas; ++m) {
      formulas_.push_back({metrics.metrics[m].name, metrics.metrics[m].formula,
                           MetricPart(metrics.metrics[m].name), m});
    }
  }
  state_ = "counting " + std::to_string(events_.size()) + " events on " +
           std::to_string(cpus_.size()) + " CPUs";
  return true;
}

bool Counting::ReadCpu(size_t i, std::vector<EventCount> *counts) {
  counts->assign(events_.size(), EventCount{});
  if (!cpu_session_ || i >= cpus_.size()) return false;
  std::vector<pm_session_count_t> raw(events_.size());
  if (pm_session_read_cpu(cpu_session_->handle, cpus_[i].cpuid, raw.data(),
                          static_cast<int>(raw.size())) != 0) {
    return false;
  }
  for (size_t e = 0; e < raw.size(); ++e)
    (*counts)[e] = {raw[e].raw, raw[e].enabled, raw[e].running};
  return true;
}

void Counting::ScanJobs() {
  if (cgroup_root_.empty() || names_.empty()) return;
  std::vector<Job> now;
  if (DIR *dir = opendir(cgroup_root_.c_str())) {
    while (const dirent *entry = readdir(dir)) {
      if (entry->d_name[0] == '.') continue;
      const std::string path = cgroup_root_ + "/" + entry->d_name;
      struct stat info;
      if (stat(path.c_str(), &info) != 0 || !S_ISDIR(info.st_mode)) continue;
      Job job;
      job.name = entry->d_name;
      for (Job &old : jobs_) {
        if (old.name == job.name) job = old;
      }
      job.owner = info.st_uid;  // a scheduler may hand the directory to its user at any time
      char flag[8];
      if (getxattr(path.c_str(), "user.pmapi.optout", flag, sizeof flag) >= 0) {
        job.session.reset();
        job.counted = false;
        job.opted_out = true;
        job.why = "opted out (user.pmapi.optout on its directory)";
        now.push_back(job);
        continue;
      }
      if (job.opted_out) {  // opted in again: a new session, from zero
        job.opted_out = false;
        job.why.clear();
      }
      if (!job.session && job.why.empty()) {
        auto inserted = job_instances_.emplace(job.name, static_cast<int>(job_instances_.size()));
        job.instance = inserted.first->second;
        job.session = OpenSession(path, &job.why);
        job.counted = job.session != nullptr;
        if (job.counted && aside_) pm_session_stop(job.session->handle);
      }
      now.push_back(job);
    }
    closedir(dir);
  }
  jobs_.swap(now);
}

void Counting::StepAside(bool aside, const std::string &why) {
  if (!cpu_session_ || aside == aside_) return;
  aside_ = aside;
  auto each = [&](pm_session_t *session) {
    if (aside) {
      pm_session_stop(session);
    } else {
      pm_session_start(session);
    }
  };
  each(cpu_session_->handle);
  for (const Job &job : jobs_) {
    if (job.session) each(job.session->handle);
  }
  if (aside) {
    counting_state_ = state_;
    state_ = why;
  } else {
    state_ = counting_state_;
  }
}

bool Counting::ReadJob(size_t j, std::vector<EventCount> *counts) {
  counts->assign(events_.size(), EventCount{});
  if (j >= jobs_.size() || !jobs_[j].session) return false;
  std::vector<pm_session_count_t> raw(events_.size());
  if (pm_session_read(jobs_[j].session->handle, raw.data(), static_cast<int>(raw.size())) != 0) {
    return false;
  }
  for (size_t e = 0; e < raw.size(); ++e)
    (*counts)[e] = {raw[e].raw, raw[e].enabled, raw[e].running};
  return true;
}

void Counting::Evaluate(const std::vector<EventCount> &counts, double seconds,
                        std::vector<double> *values) const {
  values->assign(formulas_.size(), NAN);
  if (formulas_.empty()) return;
  std::vector<long long> members;
  for (const auto &count : counts) members.push_back(static_cast<long long>(count.raw));
  pm_evaluate_group_metrics(group_id_, members.data(), static_cast<int>(members.size()), seconds,
                            values->data(), static_cast<int>(values->size()));
}

}  // namespace pmapi_pcp
