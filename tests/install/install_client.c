/* SPDX-License-Identifier: MIT */
/*
 * A client of the *installed* libpmapi: built by tests/install/install_client.sh
 * with pkg-config (shared and static) and with find_package(pmapi), using
 * nothing from the source tree.  It exercises calls that need no counters,
 * so it passes on machines without a PMU.
 *
 *   install_client                 checks the calls
 *   install_client --dlsym PREFIX  also checks that the entry points are
 *                                  exported and come from PREFIX's library
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include <pmapi.h>

static int failures = 0;

static void expect(int ok, const char *what) {
  if (!ok) {
    fprintf(stderr, "install_client: FAIL: %s\n", what);
    ++failures;
  }
}

static void check_calls(void) {
  const char *text = pm_strerror("install_client", Pmapi_NoInit);
  timebasestruct_t a, b;
  unsigned long long ta, tb;

  expect(text != NULL && strstr(text, "install_client") != NULL,
         "pm_strerror names the caller's `where`");
  expect(text != NULL && strlen(text) > strlen("install_client: "),
         "pm_strerror has a message after `where`");

  expect(read_real_time(&a, TIMEBASE_SZ) == RTC_POWER_PC, "read_real_time returns RTC_POWER_PC");
  expect(read_real_time(&b, TIMEBASE_SZ) == RTC_POWER_PC, "second read_real_time");
  ta = ((unsigned long long)a.tb_high << 32) | a.tb_low;
  tb = ((unsigned long long)b.tb_high << 32) | b.tb_low;
  expect(tb >= ta, "read_real_time does not go backwards");
  expect(time_base_to_time(&b, TIMEBASE_SZ) == 0 && b.flag == RTC_POWER,
         "time_base_to_time converts to RTC_POWER");
  expect(b.tb_low < 1000000000u, "converted nanoseconds are below one second");

  /* 0 means "clock unknown"; never negative or NaN. */
  expect(pm_cycles() >= 0.0, "pm_cycles is a non-negative frequency");
}

/* Entry points that must be exported by name (OpenJ9 and others dlsym
 * them), and must resolve into the installed library, not elsewhere. */
static void check_exports(const char *prefix) {
  static const char *const names[] = {"pm_strerror",     "pm_error",         "pm_cycles",
                                      "pm_initialize",   "read_real_time",   "read_wall_time",
                                      "mread_real_time", "time_base_to_time"};
  size_t i;
  for (i = 0; i < sizeof names / sizeof names[0]; ++i) {
    void *sym = dlsym(RTLD_DEFAULT, names[i]);
    Dl_info info;
    char what[256];
    snprintf(what, sizeof what, "dlsym finds %s", names[i]);
    expect(sym != NULL, what);
    if (sym == NULL) continue;
    snprintf(what, sizeof what, "%s comes from libpmapi under %s", names[i], prefix);
    expect(dladdr(sym, &info) != 0 && info.dli_fname != NULL &&
               strncmp(info.dli_fname, prefix, strlen(prefix)) == 0 &&
               strstr(info.dli_fname, "libpmapi.so") != NULL,
           what);
  }
}

int main(int argc, char **argv) {
  check_calls();
  if (argc == 3 && strcmp(argv[1], "--dlsym") == 0) check_exports(argv[2]);
  if (failures) return 1;
  printf("install_client: ok\n");
  return 0;
}
