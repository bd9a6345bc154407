/* SPDX-License-Identifier: MIT */
// The library's own threads (the sampling drainer): started with no counting context to
// inherit, and through the process's first pthread_create, so that a sanitizer's interceptor
// sets them up. A unit of its own so that sampling needs nothing of the counting nouns.
#pragma once

#include <pthread.h>

namespace pmapi {

// Starts one of the library's threads. Not through the inheritance wrapper's logic
// (thread_inherit.cpp): where the core is linked into another library that wrapper is a private
// copy, and from there the next pthread_create is libc's, past the interceptor. Returns
// pthread_create's error.
int StartLibraryThread(pthread_t *thread, void *(*routine)(void *), void *arg);

// Whether the calling thread is inside StartLibraryThread: the exported pthread_create, when it
// is the first one, then passes the call on without inheritance.
bool StartingLibraryThread();

}  // namespace pmapi
