// Whether this test binary runs under a sanitizer that replaces malloc (ASan, TSan): a test
// that replaces malloc itself, to count or to fail allocations, cannot do so there.
#pragma once

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define PMAPI_SANITIZER_OWNS_MALLOC 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define PMAPI_SANITIZER_OWNS_MALLOC 1
#endif
#endif
