// SPDX-License-Identifier: MIT
#include "counter_table.h"

#include <errno.h>
#include <pthread.h>
#include <unistd.h>

#include <vector>

#include "core/tracepoint_anchors.h"

namespace pmc_netbsd {

CounterTable &CounterTable::Get() {
  // Never destroyed: a counter may be read from an atexit handler.
  static CounterTable *table = new CounterTable();
  return *table;
}

CounterTable::CounterTable() {
  pthread_atfork(&CounterTable::BeforeFork, &CounterTable::AfterForkInParent,
                 &CounterTable::AfterForkInChild);
}

int CounterTable::Configure(int ctr, const CounterEvent &event) {
  std::lock_guard<std::mutex> lock(mutex_);
  Slot &slot = slots_[ctr];
  if (slot.use == Use::kProfiling) return EBUSY;
  std::vector<pmapi::GroupTarget> threads;
  int err = ThreadsOfThisProcess(&threads);
  if (err) return err;
  // Open the new events before dropping the old ones: a failed CONFIGURE
  // leaves the counter as it was.
  ProcessEvents events;
  err = events.OpenCounting(event, threads);
  if (err) return err;
  Occupy(&slot, std::move(events), event, Use::kCounting);
  return 0;
}

void CounterTable::Occupy(Slot *slot, ProcessEvents events, const CounterEvent &event, Use use) {
  slot->events = std::move(events);  // closes the old events, and so stops them
  slot->event = event;
  slot->use = use;
  slot->running = use == Use::kProfiling;  // profiling runs from PROFSTART, counting from START
}

int CounterTable::Start(int ctr) {
  std::lock_guard<std::mutex> lock(mutex_);
  Slot &slot = slots_[ctr];
  if (slot.use != Use::kCounting) return ENXIO;
  if (slot.running) return EINPROGRESS;
  int err = slot.events.Enable();
  if (!err) slot.running = true;
  return err;
}

int CounterTable::Stop(int ctr) {
  std::lock_guard<std::mutex> lock(mutex_);
  Slot &slot = slots_[ctr];
  if (slot.use != Use::kCounting) return ENXIO;
  if (!slot.running) return 0;
  int err = slot.events.Disable();
  if (!err) slot.running = false;
  return err;
}

int CounterTable::ProfStart(int ctr, const CounterEvent &event, uint64_t period) {
  std::lock_guard<std::mutex> lock(mutex_);
  Slot &slot = slots_[ctr];
  // NetBSD: EBUSY when any process or the kernel already holds the counter.
  if (slot.use != Use::kFree) return EBUSY;
  std::vector<pmapi::GroupTarget> threads;
  int err = ThreadsOfThisProcess(&threads);
  if (err) return err;
  ProcessEvents events;
  err = events.OpenProfiling(event, period, threads);
  if (err) return err;
  Occupy(&slot, std::move(events), event, Use::kProfiling);
  return 0;
}

int CounterTable::ProfStop(int ctr) {
  std::lock_guard<std::mutex> lock(mutex_);
  Slot &slot = slots_[ctr];
  if (slot.use != Use::kProfiling) return 0;
  slot.events.Close();
  slot = Slot();
  return 0;
}

int CounterTable::Value(int ctr, uint64_t *value) {
  std::lock_guard<std::mutex> lock(mutex_);
  Slot &slot = slots_[ctr];
  if (slot.use == Use::kFree) {
    *value = 0;  // NetBSD's per-process value of a counter never configured
    return 0;
  }
  // A profiling counter has only the one event: what it counted so far.
  return slot.events.ReadOwn(value);
}

int CounterTable::Accumulated(int ctr, uint64_t *value) {
  std::lock_guard<std::mutex> lock(mutex_);
  Slot &slot = slots_[ctr];
  if (slot.use != Use::kCounting) {
    *value = 0;
    return 0;
  }
  uint64_t own = 0;
  uint64_t tree = 0;
  int err = slot.events.ReadOwn(&own);
  if (!err) err = slot.events.ReadTree(&tree);
  if (err) return err;
  // Read apart, the two can disagree by what happened between the reads.
  *value = tree > own ? tree - own : 0;
  return 0;
}

int CounterTable::TypeCode(int ctr) {
  std::lock_guard<std::mutex> lock(mutex_);
  const Slot &slot = slots_[ctr];
  return slot.use == Use::kFree ? PMC_TYPE_LINUX_FREE : slot.event.type_code;
}

void CounterTable::BeforeFork() { Get().mutex_.lock(); }

void CounterTable::AfterForkInParent() { Get().mutex_.unlock(); }

void CounterTable::AfterForkInChild() {
  CounterTable &table = Get();
  // The core's tracepoint anchors are the parent's: the child closes its copies, and its
  // reopened events anchor their own (src/core/tracepoint_anchors.h).
  pmapi::DropTracepointAnchorsInChild();
  table.RebuildInChild();
  table.mutex_.unlock();
}

// NetBSD's child inherits its parent's configuration with values starting at
// zero. The descriptors the child holds are copies of the parent's events
// (reading them would show the parent's counts); the kernel meanwhile gave
// the child inherited copies of the tree events, which keep feeding the
// parent's accumulated value. So the child closes its copies and opens fresh
// events on itself, running if the parent's were. A counter that cannot be
// reopened (out of descriptors, say) is left unconfigured in the child.
// Profiling is the parent's: the child's sampling copies already report to
// the parent's events, and the child holds none of its own.
void CounterTable::RebuildInChild() {
  const std::vector<pmapi::GroupTarget> self = {ThreadTarget(getpid())};
  for (Slot &slot : slots_) {
    if (slot.use == Use::kFree) continue;
    slot.events.Close();
    if (slot.use == Use::kProfiling || slot.events.OpenCounting(slot.event, self) != 0 ||
        (slot.running && slot.events.Enable() != 0)) {
      slot.events.Close();
      slot = Slot();
    }
  }
}

}  // namespace pmc_netbsd
