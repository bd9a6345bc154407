/* SPDX-License-Identifier: MIT */
// A counting session: any number of events on any number of targets, opened, enabled,
// disabled, reset and read together. Each software event, tracepoint and other-PMU event is a
// group of its own on each place (never multiplexed, so counted exactly); hardware events go
// in the groups PackHardwareEvents makes, pinned when one group holds them all and rotated by
// the kernel, with scaled counts, when several do. AIX's program is a session too, of another
// shape (OpenProgram): its events in one group on each place, refused at once when they do not
// fit; the context (core/context.h) keeps AIX's rules above it. The nouns below it: CounterGroup
// (one group on one place), SessionTarget (the places), SessionEvent (an event and its kind).
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
  // AIX's shape: every event of `program` in one pinned group on each of `places`, a unit a
  // place, each refused at once when the counters cannot hold it (CounterGroup::
  // CheckSchedulable, whose counts are the unit's first baseline). A place that may vanish
  // and did is left out; `opened` receives the places that opened, in unit order. On failure
  // nothing stays open.
  Status OpenProgram(const Program &program, const std::vector<GroupTarget> &places,
                     std::vector<GroupTarget> *opened);
  void Close();
  // In a forked child: closes the descriptors directly, not through the seam (they are copies
  // of the parent's, and a test's kernel double is the parent's view), so that destroying the
  // session touches nothing.
  void ReleaseInChild();
  // Hardware groups never pinned, even when they all fit: the kernel may then give their
  // counters to another user's pinned events (a site-wide agent steps aside that way). Takes
  // effect at the next Open.
  void set_flexible(bool flexible) { flexible_ = flexible; }
  bool is_open() const { return open_; }

  // Every group, or none: a failure leaves nothing counting.
  Status Enable() const;
  // Every group, whatever one of them says: a group left counting would count on.
  Status Disable() const;
  // Counts and times from now on: the baselines later reads subtract. Every group is read
  // before any baseline moves, so a failure leaves them all as they were. `moved`, if given,
  // receives for each event below `n` what its baselines moved by, summed over the places.
  Status Reset(uint64_t *moved = nullptr, size_t n = 0);

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

  // Unit by unit (one group on one place; OpenProgram's in place order, their counts in
  // program order), for AIX's reads, which map counts to counters in the same pass that
  // subtracts the baseline. Allocation-free.
  size_t unit_count() const { return units_.size(); }
  Status ReadUnit(size_t unit, GroupReading *now) const { return units_[unit].group.Read(now); }
  const GroupReading &baseline(size_t unit) const { return units_[unit].baseline; }

 private:
  // One group on one place.
  struct Unit {
    CounterGroup group;
    std::vector<size_t> events;  // the session's index of each member, in group order
    int target = 0;
    int dense_cpu = -1;
    GroupReading baseline;
    // Reset's reading, kept until every unit has read, so that a failed reset moves no
    // baseline and a reset allocates nothing.
    GroupReading pending{GroupReading::kToBeFilled};
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
