/* SPDX-License-Identifier: MIT */
// Thread inheritance (thread_inherit.cpp): threads created after a thread programmed an
// inheritable context start in a context of their own.
#pragma once

#include <pthread.h>

namespace pmapi {

// Makes every loaded object's pthread_create reach libpmapi's wrapper, whatever the symbol
// search order; objects loaded since the last call are covered at the next. Called whenever a
// thread's inheritable context is set.
void RouteNewThreadsThroughInheritance();

}  // namespace pmapi
