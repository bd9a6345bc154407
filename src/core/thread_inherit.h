/* SPDX-License-Identifier: MIT */
// Thread inheritance (thread_inherit.cpp): threads created after a thread programmed an
// inheritable context start in a context of their own.
#pragma once

#include <pthread.h>

namespace pmapi {

// Starts one of the library's own threads (the sampling drainer): it inherits no context, and
// it starts through the process's first pthread_create, so a sanitizer's interceptor sets it
// up. Not through the wrapper below: where the core is linked into another library (libperfmon,
// libzx_sampler) the wrapper is that library's private copy, and from there the next
// pthread_create is libc's, past the interceptor. Returns pthread_create's error.
int StartLibraryThread(pthread_t *thread, void *(*routine)(void *), void *arg);

// Makes every loaded object's pthread_create reach libpmapi's wrapper, whatever the symbol
// search order; objects loaded since the last call are covered at the next. Called whenever a
// thread's inheritable context is set.
void RouteNewThreadsThroughInheritance();

}  // namespace pmapi
