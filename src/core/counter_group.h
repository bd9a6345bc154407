/* SPDX-License-Identifier: MIT */
// One perf event group on one target (a thread, or a CPU): the first event
// leads, the others follow, so the kernel schedules them together. Read with
// PERF_FORMAT_GROUP: one read(2) returns every count plus the times the group
// was enabled and actually running.
#pragma once

#include <linux/perf_event.h>
#include <pthread.h>
#include <stdint.h>
#include <sys/types.h>

#include <string>
#include <vector>

#include "base/status.h"
#include "core/program.h"

namespace pmapi {

// The client's events plus one the library may add to count a counting
// group's new members (see counting_group.h).
constexpr int kMaxGroupEvents = MAX_COUNTERS + 1;

// Laid out as a PERF_FORMAT_GROUP read with both times returns it, so that the read(2) fills
// it in place.
struct GroupReading {
  // Zeroed, unless made to be filled at once by a read: a hot read skips the twelve stores.
  GroupReading() : nr(0), time_enabled(0), time_running(0), values{} {}
  enum ToBeFilled { kToBeFilled };
  explicit GroupReading(ToBeFilled) {}

  uint64_t nr;                       // events read
  uint64_t time_enabled;             // ns
  uint64_t time_running;             // ns
  uint64_t values[kMaxGroupEvents];  // in group order (= Program::events order)
};

struct GroupTarget {
  pid_t pid = -1;        // -1: every task on `cpu`
  int cpu = -1;          // -1: wherever `pid` runs
  bool inherit = false;  // also count tasks `pid` creates afterwards
  // A thread found by listing a process: if it exits before it is opened it is
  // simply no longer a target, not a failure of the whole set.
  bool may_vanish = false;
  // A cgroup v2 directory: every task in it, on `cpu` (>= 0); `pid` is then ignored.
  std::string cgroup;
  std::string description;  // "CPU 3", "thread 1234": for messages
};

// Whether the kernel must keep a group on the counters all the time (pinned: it counts every
// moment or reports that it could not) or may take turns with other groups (rotated: counted
// part of the time, read with its enabled and running times to scale).
enum class Placement { kPinned, kRotated };

class CounterGroup {
 public:
  CounterGroup() = default;
  ~CounterGroup() { Close(); }
  CounterGroup(CounterGroup &&other) noexcept;
  CounterGroup &operator=(CounterGroup &&other) noexcept;
  CounterGroup(const CounterGroup &) = delete;
  CounterGroup &operator=(const CounterGroup &) = delete;

  // Opens every event of `program` on `target`, disabled. On failure nothing
  // stays open and the status names the event and the target. An inherited
  // group is opened anew when a thread the target started meanwhile copied only
  // part of it (WholeOnEveryCopy) or made the kernel refuse a member.
  Status Open(const Program &program, const GroupTarget &target,
              Placement placement = Placement::kPinned);

  // Whether the kernel can put the whole group on the counters at once. The kernel opens a
  // group of more hardware events than there are counters and says so only when it tries to
  // schedule it: a pinned leader that does not fit reads 0 bytes. So a group with a hardware
  // event, on a target whose enable takes effect at once (the calling thread, or a CPU), is
  // enabled, read and disabled here, as AIX refuses such a program when it is set; on another
  // thread, whose enable waits for it to run, the same hardware events are tried as a group on
  // the calling thread instead. Pmapi_NotSchedulable if they did not fit. `after` receives the
  // counts once disabled (what that moment counted), or zeros when nothing was tried: the caller's
  // baseline.
  Status CheckSchedulable(const Program &program, const GroupTarget &target,
                          GroupReading *after) const;

  Status Enable() const;
  Status Disable() const;
  // From the events' mapped pages when it can (see "User-space reads" below),
  // otherwise one read(2). A 0-byte read means the kernel could not schedule
  // the group; a short one is reported, never half-filled. Allocation-free
  // and lock-free on every path.
  Status Read(GroupReading *reading) const;
  void Close();

  bool is_open() const { return !fds_.empty(); }
  int leader_fd() const { return fds_.empty() ? -1 : fds_[0]; }
  const std::string &description() const { return description_; }

  // Forgets the descriptors without closing them through the seam: for a
  // forked child, whose copies are closed directly (see registry.cpp).
  std::vector<int> Release();

  // User-space reads. Open maps every event's perf page when the group counts
  // the calling thread alone (pid = the caller, any CPU, not inherited: a
  // _mythread context), every event is a hardware (PMU) event, the build is
  // x86, and PMAPI_NO_USERSPACE_READ is unset (or "0"). Read then uses the
  // pages when called on that same thread and every page says its event is
  // on a counter now that the process may rdpmc (and, for the leader, that
  // cap_user_time holds); anything else is one read(2): software events and
  // tracepoints (never mapped), a machine without a PMU, a stopped or
  // unscheduled group, another thread's read, a page the kernel kept
  // rewriting.
  bool has_pages() const { return !pages_.empty(); }
  // Reads by the owning thread of a group with pages: from the pages, and
  // those that fell back to read(2). For tests and pmcost.
  uint64_t page_reads() const { return page_reads_; }
  uint64_t page_fallbacks() const { return page_fallbacks_; }

 private:
  // One attempt: 0, or the errno of the event at index *failed, with nothing left open.
  int OpenOnce(const Program &program, const GroupTarget &target, size_t *failed);
  // Whether every copy of an inherited group has all of its events. A thread
  // the target starts between the leader's open and the last member's copies
  // the group as it was then; the kernel then refuses every group read (ECHILD)
  // for as long as that thread lives. One read right after the opens finds
  // such a copy: later threads copy the whole group.
  bool WholeOnEveryCopy(const GroupTarget &target) const;
  Status Control(unsigned long request, const char *what) const;
  void MapPages(const Program &program, const GroupTarget &target);
  void UnmapPages();
  bool ReadPages(GroupReading *reading) const;

  std::vector<int> fds_;
  std::vector<const perf_event_mmap_page *> pages_;  // one per event, or none
  pthread_t owner_{};                                // the thread pages_ count
  mutable uint64_t page_reads_ = 0;                  // touched by owner_ only
  mutable uint64_t page_fallbacks_ = 0;
  size_t read_size_ = 0;
  Placement placement_ = Placement::kPinned;
  std::string description_;
};

}  // namespace pmapi
