// SPDX-License-Identifier: MIT
#include "base/engine_counts.h"

#include <atomic>

namespace pmapi {

namespace {

// Constant-initialized: counted from the first static constructor on.
std::atomic<unsigned long> g_counts[static_cast<int>(EngineEvent::kCount)];

}  // namespace

void CountEngineEvent(EngineEvent event) {
  g_counts[static_cast<int>(event)].fetch_add(1, std::memory_order_relaxed);
}

unsigned long EngineEventCount(EngineEvent event) {
  return g_counts[static_cast<int>(event)].load(std::memory_order_relaxed);
}

}  // namespace pmapi
