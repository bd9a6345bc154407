/* SPDX-License-Identifier: MIT */
// A programmed PM context: AIX's rules over a counting session of the program's shape (its
// events in one group on each target: one per CPU for system-wide counting, one per thread
// otherwise; CountingSession::OpenProgram). The session opens, enables, disables, resets and
// reads; the context keeps what AIX adds: the program as set, whether counting is on, the gate
// of a counting group's members, the counters the reads fill, and the _mx sets.
#pragma once

#include <stdint.h>

#include <memory>
#include <vector>

#include "base/engine_export.h"
#include "base/status.h"
#include "core/counter_group.h"
#include "core/counting_session.h"
#include "core/program.h"
#include "pmapi.h"

namespace pmapi {

struct CountTimes {
  uint64_t enabled = 0;  // ns the counters were on since set/reset
  uint64_t running = 0;  // ns they actually counted
};

// One read's counts by counter: the layout of pm_data_t's accu, which the API edge copies
// them into. `filled` says the read got as far as writing them (a multiplexed read does; a
// failed one does not, and the client's struct is then left alone).
struct CounterValues {
  long long accu[MAX_COUNTERS];
  bool filled = false;
};

class CountingGroup;
class Multiplexer;

class Context {
 public:
  PMAPI_ENGINE_EXPORT ~Context();

  // Opens the program on every target and starts counting if `start`. On
  // failure no descriptor stays open.
  PMAPI_ENGINE_EXPORT static Status Create(Program program, const std::vector<GroupTarget> &targets,
                                           bool start, std::unique_ptr<Context> *out);

  // Turns this context's own counting state on; the counters run only while
  // the gate is open too (see SetGate).
  PMAPI_ENGINE_EXPORT Status Start();
  // Pmapi_NotCounting when counting is off.
  PMAPI_ENGINE_EXPORT Status Stop();
  // Moves every baseline to the current counts: later reads start from zero.
  // `moved`, if given, receives what the baselines moved by.
  Status Reset(GroupReading *moved = nullptr);

  // Sums every group (group_index -1) or reads one group into `values`
  // (indexed by counter). `times` may be null. When the kernel did not
  // count all the time the values are still filled and Pmapi_Multiplexed says so.
  Status Read(int group_index, CounterValues *values, CountTimes *times) const;
  // The same counts in program order, since the baselines, every event
  // included; `multiplexed` tells whether the kernel counted only part of the time.
  PMAPI_ENGINE_EXPORT Status ReadTotals(int group_index, GroupReading *totals,
                                        bool *multiplexed) const;

  // A counting group's members count only while the group does: the
  // effective state is (own state) AND (gate). Open unless a group closes it.
  Status SetGate(bool open);
  // The counting group this context belongs to, or null.
  CountingGroup *group() const { return group_.get(); }
  const std::shared_ptr<CountingGroup> &group_ref() const { return group_; }
  // `root`: this context names the group (its creator's, or a third-party
  // group's target's): deleting it alone would leave the group unreachable.
  void set_group(std::shared_ptr<CountingGroup> group, bool root = false) {
    group_ = std::move(group);
    group_root_ = group_ && root;
  }
  bool group_root() const { return group_root_; }

  bool counting() const { return counting_; }
  const Program &program() const { return program_; }
  // The client's events are the program's first client_events(); counter_of()[i] is event i's
  // pm_data_t.accu index.
  size_t client_events() const { return client_events_; }
  const uint8_t *counter_of() const { return counter_of_; }
  PMAPI_ENGINE_EXPORT int group_count() const;
  // What each group counts, in group order.
  const std::vector<GroupTarget> &targets() const { return targets_; }
  const CountingSession &session() const { return session_; }
  // In a forked child: forgets the parent's counters (CountingSession::ReleaseInChild).
  void ReleaseInChild() { session_.ReleaseInChild(); }
  // A multiplexed (_mx/_mm) program's sets, or null. Such a context opens no group of its
  // own: its state calls go to the multiplexer, and only the _mx/_mm reads read it.
  const Multiplexer *multiplexer() const { return multiplexer_.get(); }

 private:
  Program program_;
  std::vector<GroupTarget> targets_;
  CountingSession session_;  // a unit a target, in targets_' order
  // counter_of_[i]: the pm_data_t.accu index of the program's event i, for the client's events
  // (the first client_events_ of the program); kept apart from the events so a read stays in
  // one cache line.
  uint8_t counter_of_[MAX_COUNTERS] = {};
  size_t client_events_ = 0;
  bool counting_ = false;
  bool gate_open_ = true;
  std::shared_ptr<CountingGroup> group_;
  bool group_root_ = false;
  std::unique_ptr<Multiplexer> multiplexer_;  // last: destroyed (and unscheduled) first
};

// The Pmapi_Multiplexed status for counts that ran `times.running` of `times.enabled`.
Status MultiplexedStatus(const CountTimes &times);

}  // namespace pmapi
