/* SPDX-License-Identifier: MIT */
// The calling process's NetBSD counters: what each of the
// PMC_LINUX_NCOUNTERS slots is configured for, whether it runs, and the
// rules pmc_control enforces between the states. One table per process,
// behind one lock; after fork the child rebuilds its own (see the .cpp).
//
// Every method takes a counter index already checked by the caller and
// returns 0 or the errno pmc_control/pmc_get_info reports.
#pragma once

#include <stdint.h>
#include <sys/pmc.h>

#include <mutex>

#include "counter_event.h"
#include "process_events.h"

namespace pmc_netbsd {

class CounterTable {
 public:
  static CounterTable &Get();

  int Configure(int ctr, const CounterEvent &event);
  int Start(int ctr);
  int Stop(int ctr);
  int ProfStart(int ctr, const CounterEvent &event, uint64_t period);
  int ProfStop(int ctr);

  int Value(int ctr, uint64_t *value);
  int Accumulated(int ctr, uint64_t *value);
  int TypeCode(int ctr);

 private:
  enum class Use { kFree, kCounting, kProfiling };
  struct Slot {
    Use use = Use::kFree;
    bool running = false;
    CounterEvent event;
    ProcessEvents events;
  };

  CounterTable();
  // Gives `slot` its new events (closing the old ones) for `use`.
  static void Occupy(Slot *slot, ProcessEvents events, const CounterEvent &event, Use use);
  static void BeforeFork();
  static void AfterForkInParent();
  static void AfterForkInChild();
  void RebuildInChild();

  std::mutex mutex_;
  Slot slots_[PMC_LINUX_NCOUNTERS];
};

}  // namespace pmc_netbsd
