/* SPDX-License-Identifier: MIT */
// Whether this test binary runs under ASan or TSan. Both replace malloc, so a test that replaces
// malloc itself, to count or to fail allocations, cannot do so there; and both take page faults
// of their own for shadow memory.
#pragma once

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define PMAPI_UNDER_SANITIZER 1
#elif defined(__has_feature)  // clang; nested because gcc cannot parse __has_feature(...)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define PMAPI_UNDER_SANITIZER 1
#endif
#endif

#ifdef PMAPI_UNDER_SANITIZER
#define PMAPI_SANITIZER_OWNS_MALLOC 1
#endif
