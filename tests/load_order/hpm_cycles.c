/* SPDX-License-Identifier: MIT */
/* libhpm's runs are freed: 200 times hpmInit, hpmTerminate in one load of libhpm, then 200 times
 * dlopen libhpm, hpmInit, hpmTerminate, dlclose (a host that loads an instrumented plug-in over
 * and over). The heap in use must stay flat in both: a terminated run (about 25 KB with the
 * default 100 sections) used to be kept for good, and lost at dlclose. */
#include <malloc.h>
#include <sys/stat.h>

#include "probe.h"

enum { kCycles = 200, kWarmUp = 10, kBoundBytes = 64 * 1024 };

typedef void (*HpmInitFn)(int, const char *);
typedef void (*HpmTerminateFn)(int);

static void init_and_terminate(void *library) {
  ((HpmInitFn)probe_symbol(library, "hpmInit"))(0, "hpm_cycles");
  ((HpmTerminateFn)probe_symbol(library, "hpmTerminate"))(0);
}

/* The heap's bytes in use. */
static long in_use(void) { return (long)mallinfo2().uordblks; }

/* 0 when the heap in use after the last cycle is within the bound of the one after warm-up. */
static int check(const char *what, long warm, long last) {
  printf("%s: heap in use after %d cycles: %ld bytes; after %d: %ld bytes\n", what, kWarmUp + 1,
         warm, kCycles, last);
#ifdef PROBE_UNDER_SANITIZER
  /* The sanitizer's allocator does not report through mallinfo2; LeakSanitizer checks instead. */
  (void)warm;
  (void)last;
  return 0;
#else
  if (last - warm > kBoundBytes) {
    fprintf(stderr, "FAIL: %s: the heap grew by %ld bytes over %d cycles (bound %d)\n", what,
            last - warm, kCycles - kWarmUp - 1, kBoundBytes);
    return 1;
  }
  return 0;
#endif
}

int main(int argc, char **argv) {
  char directory[] = "/tmp/hpm_cycles.XXXXXX";
  char output[64], report[128];
  long warm = 0;
  int cycle, failed = 0;
  void *library;
  if (argc != 2) {
    fprintf(stderr, "usage: %s LIBHPM_SO\n", argv[0]);
    return 2;
  }
  if (!mkdtemp(directory)) {
    perror("mkdtemp");
    return 1;
  }
  snprintf(output, sizeof output, "%s/hpm", directory);
  setenv("HPM_OUTPUT_NAME", output, 1);

  library = probe_open(argv[1]);
  for (cycle = 0; cycle < kCycles; ++cycle) {
    init_and_terminate(library);
    if (cycle == kWarmUp) warm = in_use();
  }
  failed |= check("one load", warm, in_use());
  dlclose(library);

  for (cycle = 0; cycle < kCycles; ++cycle) {
    library = probe_open(argv[1]);
    init_and_terminate(library);
    if (dlclose(library) != 0) {
      fprintf(stderr, "FAIL: dlclose: %s\n", dlerror());
      return 1;
    }
    if (cycle == kWarmUp) warm = in_use();
  }
  failed |= check("dlopen cycles", warm, in_use());

  snprintf(report, sizeof report, "%s0.%ld", output, (long)getpid());
  unlink(report);
  strncat(report, ".json", sizeof report - strlen(report) - 1);
  unlink(report);
  rmdir(directory);
  return failed;
}
