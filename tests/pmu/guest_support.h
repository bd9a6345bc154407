// What the hardware suite's tests share: initializing the library, naming events, and a loop
// whose user-mode instruction count is known exactly.
#pragma once

#include <stdint.h>

#include <initializer_list>
#include <string>

#include "pmapi.h"

namespace pmu_guest {

// 2 instructions an iteration (subs, b.ne), n >= 1 iterations.
inline void Loop(uint64_t n) {
  asm volatile(
      "1: subs %0, %0, #1\n"
      "   b.ne 1b\n"
      : "+r"(n)
      :
      : "cc");
}
constexpr long long kInstructionsPerIteration = 2;

// pm_initialize with every status; false (and a test failure) if it failed.
bool Initialize();

// The id of an event by any name the catalog understands (pm_catalog_add_event); fails the test
// and returns COUNT_NOTHING when it has none.
int EventId(const std::string &name);

// A program counting `ids` on counters 0, 1, ... with `mode`.
pm_prog_t Program(std::initializer_list<int> ids, int mode);

// What a _mythread program counts on `counter` around Loop(n): reset, start, loop, stop, read.
// The least of `runs` tries: interrupts only add to a count (docs/hardware.md).
long long LeastMyThreadCount(uint64_t n, int counter, int runs = 5);

// The processor's name as pm_initialize gives it ("ARM Cortex A57").
std::string ProcessorName();

}  // namespace pmu_guest
