// One perf event group on one target (a thread, or a CPU): the first event
// leads, the others follow, so the kernel schedules them together. Read with
// PERF_FORMAT_GROUP: one read(2) returns every count plus the times the group
// was enabled and actually running.
#pragma once

#include <linux/perf_event.h>
#include <stdint.h>
#include <sys/types.h>

#include <string>
#include <vector>

#include "core/program.h"
#include "core/status.h"

namespace pmapi {

// The client's events plus one the library may add to count a counting
// group's new members (see counting_group.h).
constexpr int kMaxGroupEvents = MAX_COUNTERS + 1;

struct GroupReading {
  uint64_t values[kMaxGroupEvents] = {};  // in group order (= Program::events order)
  uint64_t time_enabled = 0;              // ns
  uint64_t time_running = 0;              // ns
};

struct GroupTarget {
  pid_t pid = -1;        // -1: every task on `cpu`
  int cpu = -1;          // -1: wherever `pid` runs
  bool inherit = false;  // also count tasks `pid` creates afterwards
  // A thread found by listing a process: if it exits before it is opened it is
  // simply no longer a target, not a failure of the whole set.
  bool may_vanish = false;
  std::string description;  // "CPU 3", "thread 1234": for messages
};

class CounterGroup {
 public:
  CounterGroup() = default;
  ~CounterGroup() { Close(); }
  CounterGroup(CounterGroup &&other) noexcept;
  CounterGroup &operator=(CounterGroup &&other) noexcept;
  CounterGroup(const CounterGroup &) = delete;
  CounterGroup &operator=(const CounterGroup &) = delete;

  // Opens every event of `program` on `target`, disabled. On failure nothing
  // stays open and the status names the event and the target.
  Status Open(const Program &program, const GroupTarget &target);

  Status Enable() const;
  Status Disable() const;
  // One read(2). A 0-byte read means the kernel could not schedule the group;
  // a short one is reported, never half-filled.
  Status Read(GroupReading *reading) const;
  void Close();

  bool is_open() const { return !fds_.empty(); }
  int leader_fd() const { return fds_.empty() ? -1 : fds_[0]; }
  const std::string &description() const { return description_; }

  // Forgets the descriptors without closing them through the seam: for a
  // forked child, whose copies are closed directly (see registry.cpp).
  std::vector<int> Release();

 private:
  Status Control(unsigned long request, const char *what) const;

  std::vector<int> fds_;
  size_t read_size_ = 0;
  std::string description_;
};

}  // namespace pmapi
