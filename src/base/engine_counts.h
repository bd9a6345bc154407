/* SPDX-License-Identifier: MIT */
// Counts of what the engine does once per process or once per fork and thread, kept so that a
// process which loads every API (pmapi, libpmc, libperfmon, libzx_sampler, libhpm) can see that
// one engine serves them all: one catalog built, one fork handler, one wrapper per new thread.
// Read through the private version node (tests/load_order/one_engine_test.cpp); relaxed atomics,
// never on a hot path.
#pragma once

#include "base/engine_export.h"

namespace pmapi {

enum class EngineEvent {
  kCatalogBuilt,            // the process-wide catalog was built or restored from the cache
  kForkHandlerRegistered,   // the engine's pthread_atfork handlers were installed
  kForkPrepared,            // those handlers ran before a fork
  kThreadStartWrapped,      // a pthread_create call went through the engine's wrapper
  kInheritedThreadStarted,  // a new thread started in the wrapper's trampoline, inheriting
  kCount
};

void CountEngineEvent(EngineEvent event);
PMAPI_ENGINE_EXPORT unsigned long EngineEventCount(EngineEvent event);

}  // namespace pmapi
