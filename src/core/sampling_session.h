/* SPDX-License-Identifier: MIT */
// The sampling half of the engine, as CounterGroup is the counting half: sampling events on a
// set of CPUs and targets (threads, or every task of each CPU), every CPU's samples in one
// ring (PERF_EVENT_IOC_SET_OUTPUT), and a library thread that hands each record to the front
// end. A front end keeps only its own configs, records and status codes.
//
// Fork: every session joins the fork service (base/fork_service.h); a child of fork holds none
// of its parent's (its copies of the descriptors are closed, the rings were never copied, the
// drainer is not in it). Sampling needs no counting noun: no registry, no context.
#pragma once

#include <linux/perf_event.h>
#include <poll.h>
#include <pthread.h>
#include <stddef.h>
#include <sys/types.h>

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

#include "base/engine_export.h"
#include "base/fork_service.h"
#include "base/status.h"
#include "core/fork_order.h"
#include "core/perf_ring.h"

namespace pmapi {

class SamplingSession {
 public:
  // `ring` is the index of the ring the record came from (the order of AddRing).
  using RecordFn =
      std::function<void(size_t ring, const perf_event_header &header, const uint8_t *record)>;

  // Held for the whole of every call of a sampling front end: a fork waits for it, so a child
  // never inherits it held.
  PMAPI_ENGINE_EXPORT static std::mutex &FrontEndCalls();

  // Opens the drainer's wake-up descriptor; records go to `each`, always with drain_mutex()
  // held, on the drainer or on the thread that calls Drain.
  PMAPI_ENGINE_EXPORT static Status Create(RecordFn each, std::unique_ptr<SamplingSession> *out);
  // Stops the drainer, disables and closes every event, unmaps every ring. In a child of fork:
  // nothing but forgetting the object (everything was the parent's).
  PMAPI_ENGINE_EXPORT ~SamplingSession();
  SamplingSession(const SamplingSession &) = delete;
  SamplingSession &operator=(const SamplingSession &) = delete;

  // A ring on `cpu` with up to `max_data_pages` data pages, owned by an anchor: `anchor` opened
  // for the calling process on that CPU (a dummy software event samples nothing); the events
  // that write into the ring must share its clock.
  PMAPI_ENGINE_EXPORT Status AddRing(int cpu, const perf_event_attr &anchor, size_t max_data_pages);
  // A ring on `cpu` owned by the first sampling event OpenEvent opens on it (no anchor).
  PMAPI_ENGINE_EXPORT void AddRingOfFirstSample(int cpu, size_t max_data_pages);
  size_t ring_count() const { return rings_.size(); }
  int ring_cpu(size_t ring) const { return rings_[ring]->cpu; }

  // Opens `attr` for `pid` (a thread; -1: every task) on every ring's CPU, each writing into
  // its CPU's ring; attr.inherit extends it to the tasks `pid` creates. Enabled at once when the
  // session is. On failure none of them stays open and the status names thread and CPU. `ids`,
  // if asked for, gets the kernel's id of each event opened (PERF_EVENT_IOC_ID: what
  // PERF_SAMPLE_ID says in its samples, and in those of the events the new tasks inherit).
  PMAPI_ENGINE_EXPORT Status AddTarget(pid_t pid, const perf_event_attr &attr,
                                       std::vector<uint64_t> *ids = nullptr);
  // Opens one event on ring `ring`'s CPU for `pid`, in the group of `group_fd` (-1: a group of
  // its own). A sampling event (sample_period set) writes into the ring, which it maps if the
  // ring has no owner yet. *fd stays the session's (for reads; the session closes it); *id, if
  // asked for, is the kernel's id of the event (PERF_EVENT_IOC_ID). On failure nothing of it
  // stays open, the status names the step and the CPU, and *failed_step (if asked for) is the
  // step alone: "perf_event_open", "PERF_EVENT_IOC_ID", "mapping its sample ring" or
  // "PERF_EVENT_IOC_SET_OUTPUT".
  PMAPI_ENGINE_EXPORT Status OpenEvent(size_t ring, const perf_event_attr &attr, pid_t pid,
                                       int group_fd, int *fd, uint64_t *id = nullptr,
                                       const char **failed_step = nullptr);

  // Every event of AddTarget on, or off. Disable returns once each event is off on its CPU, so
  // every sample it took is in its ring: a Drain then leaves nothing behind.
  PMAPI_ENGINE_EXPORT Status Enable();
  PMAPI_ENGINE_EXPORT void Disable();
  bool enabled() const { return enabled_; }

  // Drains every ring now on the calling thread.
  PMAPI_ENGINE_EXPORT void Drain();
  // Ends the drainer (the session drains only through Drain from then on).
  PMAPI_ENGINE_EXPORT void StopDraining();
  // Held while records are handed over: guards whatever of the front end's they touch.
  std::mutex &drain_mutex() { return drain_mutex_; }
  // Records the kernel could not write (PERF_RECORD_LOST) are the front end's to count;
  // bytes of corrupt records skipped, over every ring (drain_mutex() held).
  uint64_t discarded_bytes() const;

  // A descriptor of the session's own, open while it lives: front ends may use its number as
  // the session's handle.
  int descriptor() const { return wake_fd_; }

  // Whether this process is a child of fork holding the object of a session of its parent's.
  bool held_by_parent() const { return held_by_parent_; }
  // Runs `release` in every child of fork once the core has let go of the parent's sessions and
  // of its locks: where a front end drops what it holds of its parent's (its handles, its
  // memory), destroying its sessions if it likes. Registered once per front end (up to 8).
  PMAPI_ENGINE_EXPORT static void AtForkInChild(void (*release)());

 private:
  struct Ring {
    int cpu = -1;
    size_t max_data_pages = 0;
    int anchor_fd = -1;  // the session's own owner of the ring, if it has one
    int owner_fd = -1;   // the event the ring is mapped from: the anchor, or a first sample
    PerfRing reader;
  };

  SamplingSession() = default;
  // The fork hooks: the drain is held across the fork; the child forgets the parent's session.
  static void LockForFork(void *self);
  static void UnlockAfterFork(void *self);
  static void ForgetAfterFork(void *self);
  void ForgetInChild();  // drain_mutex_ held since before the fork
  Status MapRing(Ring *ring, int fd, const char *target);
  static void *DrainLoop(void *session);
  void DrainAll();  // drain_mutex_ held

  RecordFn each_;
  std::vector<std::unique_ptr<Ring>> rings_;
  uint64_t rings_mapped_ = 0;  // rings mapped so far: the drainer polls anew when it grows
  std::vector<int> events_;
  bool enabled_ = false;
  int wake_fd_ = -1;
  pthread_t drainer_{};
  // The drainer's poll list, the drainer's alone. A member rather than the drainer's local: a
  // child of fork has no drainer, and what only a thread's stack held would be a leak there.
  std::vector<pollfd> polled_;
  bool draining_ = false;
  std::atomic<bool> quit_{false};
  std::mutex drain_mutex_;
  bool held_by_parent_ = false;
  ForkHook fork_hook_{kForkRankSamplingSessions, this, &LockForFork, &UnlockAfterFork,
                      &ForgetAfterFork};
};

}  // namespace pmapi
