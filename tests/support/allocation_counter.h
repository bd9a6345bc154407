/* SPDX-License-Identifier: MIT */
// Counts the calling thread's allocations while a call runs: this header replaces malloc, calloc,
// realloc and memalign for the whole test binary (operator new allocates through malloc), so
// include it from exactly one file of a binary, and only of a binary that needs it. Under a
// sanitizer, which owns malloc, nothing is replaced: check kCountsAllocations and skip.
#pragma once

#include <stddef.h>

#include "support/sanitizers.h"

namespace pmapi_test {
inline thread_local bool t_watching_allocations = false;
inline thread_local int t_allocations_seen = 0;

#ifdef PMAPI_SANITIZER_OWNS_MALLOC
constexpr bool kCountsAllocations = false;
#else
constexpr bool kCountsAllocations = true;
#endif

// How many allocations `call` made in this thread.
template <typename Call>
int AllocationsIn(Call call) {
  t_allocations_seen = 0;
  t_watching_allocations = true;
  call();
  t_watching_allocations = false;
  return t_allocations_seen;
}
}  // namespace pmapi_test

#ifndef PMAPI_SANITIZER_OWNS_MALLOC
extern "C" {
void *__libc_malloc(size_t size);
void *__libc_calloc(size_t n, size_t size);
void *__libc_realloc(void *p, size_t size);
void *__libc_memalign(size_t alignment, size_t size);

void *malloc(size_t size) {
  if (pmapi_test::t_watching_allocations) ++pmapi_test::t_allocations_seen;
  return __libc_malloc(size);
}
void *calloc(size_t n, size_t size) {
  if (pmapi_test::t_watching_allocations) ++pmapi_test::t_allocations_seen;
  return __libc_calloc(n, size);
}
void *realloc(void *p, size_t size) {
  if (pmapi_test::t_watching_allocations) ++pmapi_test::t_allocations_seen;
  return __libc_realloc(p, size);
}
void *memalign(size_t alignment, size_t size) {
  if (pmapi_test::t_watching_allocations) ++pmapi_test::t_allocations_seen;
  return __libc_memalign(alignment, size);
}
}  // extern "C"
#endif
