/* SPDX-License-Identifier: MIT */
// What the stress tests measure about the whole process: open descriptors (all, and perf ones)
// and resident memory, before and after thousands of set/delete cycles.
#pragma once

#include <dirent.h>
#include <stdio.h>
#include <string.h>

#include <gtest/gtest.h>

#include "support/counting.h"

namespace pmapi_test {

struct ProcessFootprint {
  int descriptors = -1;       // entries in /proc/self/fd
  int perf_descriptors = -1;  // of which perf_event
  long rss_kib = -1;          // VmRSS from /proc/self/status
};

inline ProcessFootprint MeasureFootprint() {
  ProcessFootprint footprint;
  if (DIR *dir = opendir("/proc/self/fd")) {
    footprint.descriptors = 0;
    while (dirent *entry = readdir(dir)) footprint.descriptors += entry->d_name[0] != '.';
    closedir(dir);
    --footprint.descriptors;  // the one opendir holds
  }
  footprint.perf_descriptors = CountPerfDescriptors();
  if (FILE *status = fopen("/proc/self/status", "re")) {
    char line[256];
    while (fgets(line, sizeof line, status)) {
      if (strncmp(line, "VmRSS:", 6) == 0) footprint.rss_kib = strtol(line + 6, nullptr, 10);
    }
    fclose(status);
  }
  return footprint;
}

// Under ASan or TSan resident memory says nothing about leaks: ASan holds freed blocks in its
// quarantine (256 MiB by default) and both keep shadow memory. There the RSS check is left out
// (the test says so in its output) and LeakSanitizer, which runs at exit under ASan, does the
// job instead.
#ifdef PMAPI_UNDER_SANITIZER
constexpr bool kRssMeaningful = false;
#else
constexpr bool kRssMeaningful = true;
#endif

// Growth allowed in resident memory after the stress: malloc keeps freed memory in its arenas
// and the kernel may not have reclaimed every page. A leak of one small object per cycle
// (64 bytes x 64,000 cycles = 4 MiB) is above it.
constexpr long kRssToleranceKiB = 3 * 1024;

// Checks resident memory against the baseline, or says why it cannot.
inline void ExpectRssBackAtBaseline(const ProcessFootprint &before, const ProcessFootprint &after,
                                    long tolerance_kib) {
  if (kRssMeaningful) {
    EXPECT_LE(after.rss_kib, before.rss_kib + tolerance_kib) << "VmRSS grew: a leak?";
  } else {
    printf(
        "VmRSS not checked: a sanitizer's allocator keeps freed memory (LeakSanitizer checks "
        "leaks at exit instead)\n");
  }
}

}  // namespace pmapi_test
