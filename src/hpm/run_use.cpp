// SPDX-License-Identifier: MIT
// The retired runs and the counters of calls in progress (run_use.h). A call counts itself
// before it reads the current run, and a run is retired only after it stopped being current:
// so when every counter reads 0 after a run was retired, no call can still hold it (both sides
// sequentially consistent, the classic store-then-load handshake).
#include "run_use.h"

namespace hpm {
namespace {

constexpr int kCounters = 64;

// One cache line each, so that threads on different counters do not contend.
struct alignas(64) CallCounter {
  std::atomic<long> calls{0};
};
CallCounter g_calls[kCounters];
std::atomic<unsigned> g_next_counter{0};
thread_local int t_counter = -1;

// Newest first, through Run::previous. Lock-free, so that a fork while another thread retires
// or frees leaves the child no lock to wait on.
std::atomic<Run *> g_retired{nullptr};

// Puts the chain first .. last (linked through previous) back at the head.
void PushChain(Run *first, Run *last) {
  Run *head = g_retired.load(std::memory_order_relaxed);
  do {
    last->previous = head;
  } while (!g_retired.compare_exchange_weak(head, first, std::memory_order_release,
                                            std::memory_order_relaxed));
}

bool AnyCallInside() {
  for (const CallCounter &counter : g_calls) {
    if (counter.calls.load(std::memory_order_seq_cst) != 0) return true;
  }
  return false;
}

}  // namespace

RunUse::RunUse() {
  if (t_counter < 0) {
    t_counter = static_cast<int>(g_next_counter.fetch_add(1, std::memory_order_relaxed) %
                                 static_cast<unsigned>(kCounters));
  }
  calls_ = &g_calls[t_counter].calls;
  calls_->fetch_add(1, std::memory_order_seq_cst);
}

RunUse::~RunUse() { calls_->fetch_sub(1, std::memory_order_release); }

Run *RunInUse(const std::atomic<Run *> &current) { return current.load(std::memory_order_seq_cst); }

void Retire(Run *run) { PushChain(run, run); }

void FreeRetiredRuns() {
  Run *taken = g_retired.exchange(nullptr, std::memory_order_seq_cst);
  if (!taken) return;
  if (AnyCallInside()) {
    Run *last = taken;
    while (last->previous) last = last->previous;
    PushChain(taken, last);
    return;
  }
  while (taken) {
    Run *previous = taken->previous;
    delete taken;
    taken = previous;
  }
}

void ForgetCallsInChild() {
  for (CallCounter &counter : g_calls) counter.calls.store(0, std::memory_order_relaxed);
}

// dlclose: no thread may be inside the library, so nothing retired is held; freeing here is
// what keeps a host that loads, uses and unloads libhpm over and over from growing. At exit a
// call still inside leaves the runs alone.
__attribute__((destructor)) void FreeRetiredRunsAtUnload() { FreeRetiredRuns(); }

}  // namespace hpm
