// SPDX-License-Identifier: MIT
#include "fork_generation.h"

#include <pthread.h>

#include <atomic>

namespace perfmon {
namespace {

std::atomic<uint64_t> g_generation{0};

void CountForkInChild() { g_generation.fetch_add(1, std::memory_order_relaxed); }

// Registered when the library loads, before any controller can exist: a fork before the first
// ForkGeneration() call must count too.
const bool g_registered = pthread_atfork(nullptr, nullptr, &CountForkInChild) == 0;

}  // namespace

uint64_t ForkGeneration() {
  (void)g_registered;
  return g_generation.load(std::memory_order_relaxed);
}

}  // namespace perfmon
