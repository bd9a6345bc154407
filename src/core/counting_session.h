/* SPDX-License-Identifier: MIT */
// A counting session: any number of events on any number of targets, opened, enabled,
// disabled, reset and read together. Each software event, tracepoint and other-PMU event is a
// group of its own on each place (never multiplexed, so counted exactly); hardware events go
// in the groups PackHardwareEvents makes, pinned when one group holds them all and rotated by
// the kernel, with scaled counts, when several do. The nouns below it: CounterGroup (one group
// on one place), SessionTarget (the places), SessionEvent (an event and its kind).
#pragma once

#include <stddef.h>
#include <stdint.h>

#include <vector>

#include "base/status.h"
#include "core/counter_group.h"
#include "core/session_event.h"
#include "core/session_target.h"

namespace pmapi {

// One event's count over the places read.
struct SessionCount {
  uint64_t value = 0;    // `raw` scaled to the enabled time, place by place, where rotated
  uint64_t raw = 0;      // as counted
  uint64_t enabled = 0;  // ns, summed over the places
  uint64_t running = 0;  // ns
  bool scaled = false;   // some place ran less than it was enabled
};

class CountingSession {
 public:
  static constexpr int kAny = -1;

  CountingSession() = default;
  CountingSession(const CountingSession &) = delete;
  CountingSession &operator=(const CountingSession &) = delete;

  // Opens every event on every place of every target, disabled. A thread of a process that
  // exits meanwhile is no longer a place; any other failure closes all that was opened and
  // says what failed. Running out of descriptors, found before the opens (the process's limit
  // against what the session needs) or by one of them, says how many the session needs and
  // the `ulimit -n` that gives them.
  Status Open(const std::vector<SessionEvent> &events, const std::vector<SessionTarget> &targets);
  void Close();
  // Hardware groups never pinned, even when they all fit: the kernel may then give their
  // counters to another user's pinned events (a site-wide agent steps aside that way). Takes
  // effect at the next Open.
  void set_flexible(bool flexible) { flexible_ = flexible; }
  bool is_open() const { return open_; }

  Status Enable() const;
  Status Disable() const;
  // Counts and times from now on: the baselines later reads subtract.
  Status Reset();

  // Fills counts[0..n) (n at most the number of events) with the sums over the places of
  // target `target` (kAny: every one) on dense CPU `cpu` (kAny: every place, tasks too).
  // Allocation-free.
  Status Read(int target, int cpu, SessionCount *counts, size_t n) const;

  // Whether some place counts dense CPU `cpu`.
  bool CountsCpu(int cpu) const;
  // The hardware group of event `index`, or -1 (another kind, or not open).
  int GroupOf(size_t index) const;
  // The descriptors open.
  size_t descriptors() const;

 private:
  // One group on one place.
  struct Unit {
    CounterGroup group;
    std::vector<size_t> events;  // the session's index of each member, in group order
    int target = 0;
    int dense_cpu = -1;
    GroupReading baseline;
  };

  Status OpenUnits(const std::vector<SessionEvent> &events,
                   const std::vector<std::vector<size_t>> &hardware,
                   const std::vector<std::vector<SessionPlace>> &places);

  std::vector<Unit> units_;
  std::vector<int> group_of_;
  bool flexible_ = false;
  size_t nevents_ = 0;
  bool open_ = false;
};

}  // namespace pmapi
