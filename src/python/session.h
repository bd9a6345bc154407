// SPDX-License-Identifier: MIT
// pmapi.Session: one pm_session_t with its events, its targets and the counts of its last
// read. A group name is counted as its members, in order, so that its formulas apply.
#pragma once

#include <pmapi.h>
#include <pmapi_session.h>

#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace pmapi_python {

class Session {
 public:
  // `events`: a list as pm_session_add_events takes it, a group's name, or none for the default
  // group. `scope`: "thread" (the calling thread), "process" (this process, with the threads
  // and children it creates), "system" (every task on `cpus`, all when empty), "none" (a
  // target added later, by RunCommand).
  Session(const std::optional<std::string> &events, const std::string &scope,
          const std::vector<int> &cpus);
  ~Session();
  Session(const Session &) = delete;
  Session &operator=(const Session &) = delete;

  // Closes every descriptor now (the counts read at the stop stay); later starts fail.
  void Close();
  void Start();
  void Stop();
  void Reset();
  // Reads every target into counts() (nothing to do when stopped: the stop read them).
  void Refresh();
  // Reads the places on dense CPU `cpu` (a system session) into `out`.
  void ReadCpu(int cpu, std::vector<pm_session_count_t> &out);
  // Runs argv with its descendants as the target, and returns its status as subprocess does.
  int RunCommand(const std::vector<std::string> &argv);

  // The events' names, asked of the library on first use (most with-blocks never need them).
  const std::vector<std::string> &names() const;
  const std::vector<pm_session_count_t> &counts() const { return counts_; }
  const std::vector<int> &cpus() const { return cpus_; }
  const std::string &scope() const { return scope_; }
  int group_id() const { return group_id_; }
  const std::string &group_name() const { return group_name_; }
  bool counting() const { return counting_; }
  double Elapsed() const;  // seconds counted so far, over every start/stop
  // The group's formulas over the counts and the elapsed time: (name, value) in table order.
  std::vector<std::pair<std::string, double>> Metrics() const;

 private:
  void AddEvents(const std::optional<std::string> &events);
  bool Blocking() const;  // the GIL is released around this session's calls
  void CheckOpen() const;
  template <typename Call>
  void Run(Call call);

  pm_session_t *session_ = nullptr;
  std::string scope_;
  std::vector<int> cpus_;
  mutable std::vector<std::string> names_;  // filled by names(), and before Close()
  std::vector<pm_session_count_t> counts_;
  int group_id_ = -1;
  std::string group_name_;
  bool counting_ = false;
  double elapsed_ = 0;  // seconds of the intervals already stopped
  double started_ = 0;  // monotonic seconds at the last start
  std::mutex in_use_;   // held by a call that runs without the GIL
};

}  // namespace pmapi_python
