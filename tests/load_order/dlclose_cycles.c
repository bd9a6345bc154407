/* SPDX-License-Identifier: MIT */
/* 200 times: dlopen libpmapi.so, pm_initialize, dlclose, as a JVM that probes for an event does
 * (or, given FUNCTION, another library and a call of its `int FUNCTION(void)` that builds its
 * catalog). Resident memory must stay flat: nothing a library built may be left unreachable. */
#include "probe.h"

enum { kCycles = 200, kWarmUp = 10, kBoundKib = 8 * 1024 };

int main(int argc, char **argv) {
  long warm = 0, last;
  int cycle;
  if (argc != 2 && argc != 3) {
    fprintf(stderr, "usage: %s LIBPMAPI_SO | %s LIBRARY FUNCTION\n", argv[0], argv[0]);
    return 2;
  }
  for (cycle = 0; cycle < kCycles; ++cycle) {
    void *library = probe_open(argv[1]);
    if (argc == 3) {
      ((PlainFn)probe_symbol(library, argv[2]))();
    } else {
      InitializeFn initialize = (InitializeFn)probe_symbol(library, "pm_initialize");
      pm_info2_t info;
      pm_groups_info_t groups;
      int rc = initialize(PM_VERIFIED | PM_UNVERIFIED | PM_CAVEAT, &info, &groups, PM_CURRENT);
      if (rc != 0) {
        fprintf(stderr, "FAIL: pm_initialize returned %d at cycle %d\n", rc, cycle);
        return 1;
      }
    }
    if (dlclose(library) != 0) {
      fprintf(stderr, "FAIL: dlclose: %s\n", dlerror());
      return 1;
    }
    if (cycle == kWarmUp) warm = probe_resident_kib();
  }
  last = probe_resident_kib();
  printf("VmRSS after %d cycles: %ld KiB; after %d: %ld KiB\n", kWarmUp + 1, warm, kCycles, last);
#ifdef PROBE_UNDER_SANITIZER
  /* The sanitizer's quarantine keeps freed memory resident; LeakSanitizer checks instead. */
  printf("VmRSS check skipped under a sanitizer\n");
  return 0;
#else
  if (warm < 0 || last < 0) {
    fprintf(stderr, "FAIL: cannot read VmRSS\n");
    return 1;
  }
  if (last - warm > kBoundKib) {
    fprintf(stderr, "FAIL: resident memory grew by %ld KiB over %d cycles (bound %d KiB)\n",
            last - warm, kCycles - kWarmUp - 1, kBoundKib);
    return 1;
  }
  return 0;
#endif
}
