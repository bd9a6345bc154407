// SPDX-License-Identifier: MIT
// What the agent counts, through libpmapi's public calls only: the events chosen by a spec or
// a group name (the selection call), one counting session over every CPU, and one session per
// job (a cgroup v2 directory under the configured root). No PCP header here: PCP's pmapi.h and
// libpmapi's share a name, so the agent's PCP side (pmda.cpp) sees only these plain types.
#ifndef PMAPI_PCP_COUNTING_H
#define PMAPI_PCP_COUNTING_H

#include "metric_ids.h"

#include <stdint.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace pmapi_pcp {

struct EventCount {
  uint64_t raw = 0;      // what the kernel counted: never scaled here
  uint64_t enabled = 0;  // nanoseconds enabled
  uint64_t running = 0;  // nanoseconds on a counter
};

struct CountedEvent {
  std::string name;  // as the session names it, modifiers too: "page-faults:u"
  std::string leaf;  // its metric name below the scope: "page_faults_u"
  int event_id = -1;
  Mode mode = Mode::kAll;
  bool hardware = false;  // on the processor's counters: may be multiplexed
};

struct Formula {
  std::string name;     // "IPC"
  std::string formula;  // "PM_INST_CMPL / PM_CYC"
  std::string leaf;     // its metric name below pmapi.derived.<scope>.
  int position = 0;     // its index in the group's formulas
};

struct Refusal {
  std::string event;
  std::string reason;
};

struct CpuPlace {
  int cpuid = 0, lcpu = 0, core = -1, package = -1, numa_node = -1;
};

struct Session;  // a libpmapi counting session (counting.cpp)

struct Job {
  std::string name;      // the directory's name under the root: the instance name
  int instance = 0;      // never reused for another name
  unsigned owner = 0;    // the directory's owner's uid
  bool counted = false;  // false: opted out, or its session failed to open (why says why)
  bool opted_out = false;
  std::string why;
  std::shared_ptr<Session> session;
};

class Counting {
 public:
  Counting();
  ~Counting();
  Counting(const Counting &) = delete;
  Counting &operator=(const Counting &) = delete;

  // Chooses the events of `spec` ("" is the library's default: pm_basic where a PMU counts,
  // else pm_sw_basic) and starts counting every CPU. False when nothing counts; state() says
  // why. Events refused one by one are in refusals(), the others count.
  bool Configure(const std::string &spec);

  bool ok() const { return cpu_session_ != nullptr; }  // Configure succeeded
  const std::string &spec() const { return spec_; }
  const std::string &state() const { return state_; }
  const std::string &note() const { return note_; }
  const std::vector<CountedEvent> &events() const { return events_; }
  const std::vector<Refusal> &refusals() const { return refusals_; }
  const std::vector<CpuPlace> &cpus() const { return cpus_; }
  int group_id() const { return group_id_; }
  const std::vector<Formula> &formulas() const { return formulas_; }

  // Counts of every event on CPU index i (cpus()[i]); false when the read failed.
  bool ReadCpu(size_t i, std::vector<EventCount> *counts);

  // Jobs: the directories just under `root`, each counted from when it was first seen. A job
  // whose directory carries the extended attribute user.pmapi.optout (its owner may set it:
  // setfattr -n user.pmapi.optout -v 1 DIR) is not counted, and counts from zero once removed.
  void SetCgroupRoot(const std::string &root) { cgroup_root_ = root; }
  const std::string &cgroup_root() const { return cgroup_root_; }
  void ScanJobs();
  const std::vector<Job> &jobs() const { return jobs_; }
  bool ReadJob(size_t j, std::vector<EventCount> *counts);

  // Stops every session (counts stay where they are) while `aside`, starts them again after;
  // `why` is the state while aside.
  void StepAside(bool aside, const std::string &why);
  bool aside() const { return aside_; }

  // The group's formulas from counts in member order; NaN where a formula has no value.
  void Evaluate(const std::vector<EventCount> &counts, double seconds,
                std::vector<double> *values) const;

 private:
  std::shared_ptr<Session> OpenSession(const std::string &cgroup, std::string *why) const;

  std::string spec_;
  std::string state_ = "not configured";
  std::string note_;
  std::vector<std::string> names_;  // what each counted event was added as
  std::vector<CountedEvent> events_;
  std::vector<Refusal> refusals_;
  std::vector<CpuPlace> cpus_;
  std::vector<Formula> formulas_;
  int group_id_ = -1;
  std::shared_ptr<Session> cpu_session_;
  std::string cgroup_root_;
  bool aside_ = false;
  std::string counting_state_;  // the state while counting
  std::vector<Job> jobs_;
  std::map<std::string, int> job_instances_;  // every name seen, so an id is never reused
};

}  // namespace pmapi_pcp

#endif  // PMAPI_PCP_COUNTING_H
