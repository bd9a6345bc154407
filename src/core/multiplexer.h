/* SPDX-License-Identifier: MIT */
// Counter multiplexing (_mx) and multi-mode (_mm) programs: several event sets on the same
// targets, exactly one of them counting at a time, switched every slice. Each set is a plain
// Context of its own (one perf group per target); the multiplexer enables the current set's
// groups and disables the others, counts complete rounds, and reads a set's counts together
// with the time the kernel says that set actually counted.
//
// Who drives the switch: the process's one rotator thread (multiplex_rotator.h) calls Switch()
// when a multiplexer's slice is due, whatever the target (the calling thread, another thread,
// CPUs, a counting group's inherited counters). Tests drive it by hand instead.
#pragma once

#include <stdint.h>

#include <memory>
#include <mutex>
#include <vector>

#include "base/status.h"
#include "core/counter_group.h"
#include "core/program.h"

namespace pmapi {

class Context;

// At most this many event sets in one _mx/_mm program: each costs a perf group per target.
constexpr int kMaxMultiplexSets = 64;
// slice_duration 0 asks for this slice (ms).
constexpr int kDefaultSliceMs = 10;

// What a _mx or _mm program asked for, validated. Travels inside the Program of set 0 (see
// Program::multiplex()), so that new threads inheriting a program inherit every set.
struct MultiplexSpec {
  std::vector<Program> sets;  // plain programs, set 0 first
  int slice_ms = kDefaultSliceMs;
  bool multi_mode = false;  // set by _mm (one mode per set) rather than _mx (one mode for all)
};

class Multiplexer {
 public:
  // Opens every set of `carrier.multiplex()` on `targets`, none counting. Library events the
  // carrier added after set 0's own (a counting group's fork counter) go into every set, so
  // that together the sets count them all the time. On failure nothing stays open.
  static Status Create(const Program &carrier, const std::vector<GroupTarget> &targets,
                       std::unique_ptr<Multiplexer> *out);
  ~Multiplexer();
  Multiplexer(const Multiplexer &) = delete;
  Multiplexer &operator=(const Multiplexer &) = delete;

  // The same state machine as a plain Context: counting = own state AND gate.
  Status Start();
  Status Stop();
  Status SetGate(bool open);
  // Every set's baselines move to now and the round count restarts.
  Status Reset();
  bool counting() const;

  // Ends the current set's slice and starts the next one's (a round completes when the last
  // set's slice ends). Nothing happens while counting is off. Tests call it by hand.
  Status Switch();
  // The rotator's switch at `now`: ends every slice that is over by then (one, unless the
  // rotator ran late), so that the schedule keeps to the clock.
  Status SwitchDue(uint64_t now);
  // When the current slice ends (CLOCK_MONOTONIC ns), or UINT64_MAX while counting is off.
  uint64_t NextSwitch() const;

  // Set `set`'s counts since set or reset, in that set's program order, summed over every
  // target (group_index -1) or for one.
  Status ReadSet(int set, int group_index, GroupReading *totals) const;
  // Every set (into totals[0 .. set_count() - 1]) and the round count, under one lock.
  Status ReadSets(int group_index, GroupReading *totals, int *rounds) const;
  // The library events (after set 0's client events, as in the carrier's layout), summed over
  // the sets; the client events read 0. For a counting group's member count.
  Status ReadLibraryEvents(int group_index, GroupReading *totals) const;
  int rounds() const;

  const MultiplexSpec &spec() const { return *spec_; }
  int set_count() const { return static_cast<int>(sets_.size()); }
  int group_count() const;
  const std::vector<GroupTarget> &targets() const;

 private:
  Multiplexer() = default;
  bool active() const { return counting_ && gate_open_; }
  Status EnableCurrent();
  Status DisableCurrent();
  Status AdvanceLocked(uint64_t slices);
  // A set that is not current is disabled, so its counts and times cannot move: its totals
  // per target are read once when it stops counting (Freeze) and reads are served from them,
  // which halves a 2-set read's system calls. Unfreeze before the set counts again.
  void Freeze(int set);
  void Unfreeze(int set) { frozen_[static_cast<size_t>(set)].valid = false; }
  Status ReadSetLocked(int set, int group_index, GroupReading *totals) const;

  std::shared_ptr<const MultiplexSpec> spec_;
  std::vector<std::unique_ptr<Context>> sets_;
  struct Frozen {
    bool valid = false;
    std::vector<GroupReading> per_group;  // the set's totals since set or reset, per target
  };
  std::vector<Frozen> frozen_;  // one per set
  int library_events_ = 0;      // events each set carries after its own
  mutable std::mutex mutex_;
  uint64_t slice_ns_ = 0;
  int current_ = 0;
  int rounds_ = 0;
  bool counting_ = false;
  bool gate_open_ = true;
  uint64_t next_switch_ = 0;
  bool in_rotation_ = false;  // false: switched by hand (tests), or not yet created
};

// Multiplexers created from now on are switched only by explicit Switch() calls (tests).
void DriveMultiplexersByHandForTesting(bool by_hand);

}  // namespace pmapi
